#!/bin/bash
# temporary device check (removed afterwards)
cd "$(dirname "$0")"
B=/tmp/cb; mkdir -p $B/res; R=${OUT:-/tmp}/report.txt; : > $R
nvidia-smi -L >> $R
for f in *.cu; do
  b=${f%.cu}
  echo "nvcc -arch=sm_90 -o $B/$b $f > $B/$b.clog 2>&1 || echo 'COMPILE FAIL $f' > $B/res/0cf.$b"
  for v in $(grep -o 'BUG_[A-Z0-9_]*' $f | sort -u); do
    echo "nvcc -arch=sm_90 -D$v -o $B/$b.$v $f > $B/$b.$v.clog 2>&1 || echo 'COMPILE FAIL $f $v' > $B/res/0cf.$b.$v"
  done
done | xargs -P 16 -I{} bash -c "{}"
echo "compiled $(date)" >> $R
# one job per binary: 3 plain runs, then the sanitizer tools
job() {
  f=$1; v=$2; b=${f%.cu}; exe=$B/$b${v:+.$v}; o=$B/res/$b${v:+.$v}
  exp=$(grep "^$f: " expected.txt | sed "s/^$f: //")
  line="$f ${v:-CORRECT}:"
  for k in 1 2 3; do
    timeout 30 $exe > $o.out$k 2>&1; rc=$?
    last=$(tail -n 1 $o.out$k)
    if [ "$last" == "$exp" ] && [ $rc == 0 ]; then line="$line run$k=OK"; else line="$line run$k=rc$rc[$last]"; fi
  done
  for tool in racecheck synccheck memcheck; do
    timeout 200 compute-sanitizer --tool $tool $exe > $o.$tool 2>&1; rc=$?
    line="$line | $tool rc=$rc $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $o.$tool | tr '\n' ' ') $(grep -E 'Invalid|Barrier error|Race reported|hazard' $o.$tool | sed 's/ at .*//' | sort | uniq -c | head -3 | tr -s ' ' | tr '\n' ';')"
  done
  echo "$line" > $o.summary
}
export -f job; export B
for f in *.cu; do
  echo "$f"
  for v in $(grep -o 'BUG_[A-Z0-9_]*' $f | sort -u); do echo "$f $v"; done
done | xargs -P 12 -I{} bash -c "job {}"
cat $B/res/0cf.* >> $R 2>/dev/null
cat $B/res/*.summary >> $R
cp $B/res/printf_threads.out1 ${OUT:-/tmp}/printf_out.txt
tar czf ${OUT:-/tmp}/res.tgz -C $B res
echo "DONE $(date)" >> $R
