# Compiles SRC and passes only if compilation FAILS with a message matching the
# file's "// EXPECT: <regex>" line: misuse must be a compile error with a readable text.
file(STRINGS ${SRC} expect_line REGEX "^// EXPECT: ")
string(REGEX REPLACE "^// EXPECT: " "" expect "${expect_line}")
execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -I${INC} ${SRC}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${SRC} compiled, but this misuse must be rejected at compile time")
endif()
if(NOT err MATCHES "${expect}")
  message(FATAL_ERROR "${SRC} failed to compile, but without the expected message '${expect}':\n${err}")
endif()
message(STATUS "rejected as expected: ${expect}")
