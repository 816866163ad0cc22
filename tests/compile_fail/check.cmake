# Runs one compile-fail case: compiles SOURCE with the compiler and flags
# given, and passes when the outcome is what the file's first line says:
#   // expect: compiles
#   // expect-error: <regular expression the compiler's output must match>
# Requiring the expected message, not just a failure, keeps a case from
# passing because of an unrelated error (a typo, a missing header).
# Variables: COMPILER, SOURCE, FLAGS (a ;-list).
file(STRINGS ${SOURCE} first_line LIMIT_COUNT 1)
execute_process(COMMAND ${COMPILER} ${FLAGS} ${SOURCE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(first_line MATCHES "^// expect: compiles")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} should compile but did not:\n${err}")
  endif()
elseif(first_line MATCHES "^// expect-error: (.*)$")
  set(pattern "${CMAKE_MATCH_1}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "${SOURCE} compiled, but it must not")
  endif()
  if(NOT "${err}" MATCHES "${pattern}")
    message(FATAL_ERROR "${SOURCE} failed, but not with an error matching '${pattern}':\n${err}")
  endif()
else()
  message(FATAL_ERROR "${SOURCE}: the first line must be '// expect: compiles' or '// expect-error: <regex>'")
endif()
