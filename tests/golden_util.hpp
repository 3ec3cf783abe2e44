// Golden files under tests/golden/: the test compares its text with the file;
// TS_UPDATE_GOLDEN=1 rewrites the file instead (after an intended format change).
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace golden {

inline std::string path(std::string const& name) { return std::string(TS_SOURCE_DIR) + "/tests/golden/" + name; }

inline void expect(std::string const& name, std::string const& actual) {
  if (std::getenv("TS_UPDATE_GOLDEN")) {
    std::ofstream(path(name)) << actual;
    return;
  }
  std::ifstream in(path(name));
  ASSERT_TRUE(in.good()) << "missing golden file " << path(name);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(actual, ss.str()) << "printout differs from " << name;
}

template <class TM>
std::string printed(TM const& tm) {
  std::ostringstream os;
  tm.print(os);
  return os.str();
}

}  // namespace golden
