// Readable names from the compiler's __PRETTY_FUNCTION__ text. GCC, Clang and nvcc's
// front end all print the template argument as "M = &Class::method" (or "T = type"),
// ended by ';' or ']' at bracket depth zero.
#include <string>
#include <string_view>
#include <vector>

#include "ts/schedule/names.hpp"

namespace ts {

namespace {

std::string argument_after(std::string_view pretty, std::string_view marker) {
  auto p = pretty.find(marker);
  if (p == std::string_view::npos) return std::string(pretty);
  p += marker.size();
  int depth = 0;
  size_t e = p;
  for (; e < pretty.size(); ++e) {
    char c = pretty[e];
    if (c == '<' || c == '(' || c == '[') ++depth;
    else if (c == '>' || c == ')' || (c == ']' && depth > 0)) --depth;
    else if ((c == ';' || c == ']') && depth == 0) break;
    if (depth < 0) break;
  }
  return std::string(pretty.substr(p, e - p));
}

std::string trim(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

}  // namespace

std::string member_name_from_pretty(std::string_view pretty) {
  std::string a = trim(argument_after(pretty, "M = "));
  if (!a.empty() && a.front() == '&') a.erase(a.begin());
  // Some front ends print "(&X::f)"; drop the parentheses.
  if (a.size() > 2 && a.front() == '(' && a.back() == ')') a = a.substr(1, a.size() - 2);
  if (!a.empty() && a.front() == '&') a.erase(a.begin());
  return a;
}

std::string type_name_from_pretty(std::string_view pretty) {
  return trim(argument_after(pretty, "T = "));
}

}  // namespace ts
