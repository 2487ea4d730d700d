// Text as the user typed it: one value without the spaces around it, a line as its words.
#pragma once

#include <string>
#include <vector>

namespace syncscope {

std::string trim(const std::string& s);                        // without spaces and tabs around it
std::vector<std::string> split_words(const std::string& text);  // split at runs of whitespace

}  // namespace syncscope
