# Runs tests/debugger/debuggee under `gdb -batch -nx` and checks what gdb
# prints (docs/debugging.md). Prints "SKIP: gdb is not installed" (which
# CTest reports as a skip) when gdb is absent; fails on anything else that
# is not as expected.
#
#   MODE=printers     the pretty printers, auto-loaded from libonnxscript_ir's
#                     .debug_gdb_scripts section (nothing is sourced by hand):
#                     Tensors of several element types, RuntimeValues, each
#                     kind of script Value, an ir::Value and an ir::Node, and
#                     bytes that are no object.
#   MODE=breakpoints  a breakpoint on every line of the script lambda marked
#                     `// line:` stops there, both while the lambda is traced
#                     and while it runs eagerly.
#
# Variables: MODE, GDB (may be empty or NOTFOUND), PROGRAM, SOURCE (the
# debuggee's source, for its marked lines), SAFE_DIR (the directory of
# libonnxscript_ir, added to gdb's auto-load safe path), WORK_DIR.

cmake_minimum_required(VERSION 3.25)  # keeps the empty items of lists below

if(NOT GDB OR NOT EXISTS "${GDB}")
  # CTest reports the test as skipped when this text is printed
  # (SKIP_REGULAR_EXPRESSION: a -P script of CMake 3.25 cannot choose its exit code).
  message(FATAL_ERROR "SKIP: gdb is not installed (scripts/install-deps.sh installs it)")
endif()

file(STRINGS ${SOURCE} source_lines)
get_filename_component(source_name ${SOURCE} NAME)

# The line number of the source line containing `marker`.
function(line_of marker out)
  set(n 0)
  foreach(text IN LISTS source_lines)
    math(EXPR n "${n} + 1")
    string(FIND "${text}" "${marker}" at)
    if(NOT at EQUAL -1)
      set(${out} ${n} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "no line of ${SOURCE} contains '${marker}'")
endfunction()

# Runs gdb on PROGRAM with the command file `commands`; sets `gdb_output`.
function(run_gdb commands)
  file(MAKE_DIRECTORY ${WORK_DIR})
  file(WRITE ${WORK_DIR}/${MODE}.gdb "${commands}")
  execute_process(
    COMMAND ${GDB} -batch -nx -iex "set debuginfod enabled off"
            -iex "add-auto-load-safe-path ${SAFE_DIR}" -x ${WORK_DIR}/${MODE}.gdb ${PROGRAM}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  message("${out}")
  if(err)
    message("gdb's standard error:\n${err}")
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gdb exited with ${rc}")
  endif()
  set(gdb_output "${out}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "printers")
  line_of("// stop: main" main_line)
  line_of("stop: lambda" lambda_line)
  # Each check: a gdb command, then what gdb must print for it, exactly
  # (`$N = ` for `print` is matched as any number).
  set(checks
      "print t" "Tensor float[2,3] = {1, 2, 3, 4, 5, 6}"
      "print longer" "Tensor int64[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, ...}"
      "print halves" "Tensor float16[3] = {1.5, -2, 0.25}"
      "print brains" "Tensor bfloat16[2] = {3, -0.5}"
      "print flags" "Tensor bool[3] = {true, false, true}"
      "print words" "Tensor string[2] = {\"hello\", \"a string longer than forty characters, c...\"}"
      "print scalar" "Tensor double[] = {0.25}"
      "print empty" "Tensor undefined"
      "print rv_tensor" "RuntimeValue tensor float[2,3] = {1, 2, 3, 4, 5, 6}"
      "print rv_sequence" "RuntimeValue sequence(int64) of 2 = [tensor int64[2] = {7, 8}, tensor int64[1] = {9}]"
      "print rv_none" "RuntimeValue none"
      "print literal_float" "Value literal 0.5"
      "print literal_int" "Value literal 3"
      "print literal_bool" "Value literal true"
      "print none" "Value none"
      "print *(onnxscript::ir::Tensor*)junk" "Tensor dtype(2880154539)[<unreadable shape>]"
      "print *(onnxscript::eval::RuntimeValue*)junk" "RuntimeValue <not printable: kind 171>"
      "print *(onnxscript::Value*)junk" "Value <not printable: kind 171>"
      "print *(onnxscript::ir::Node*)junk" "ir::Node <unreadable memory: Cannot access memory at address 0xabababababababab>"
      "continue" ""
      # The lambda's first run traces it.
      "print X" "Value traced float[N,3] 'X'"
      "print half" "Value literal 0.5"
      "print relu" "Value traced float[N,3] 'R'"
      "print *g_relu_ir" "ir::Value \"R\" float[N,3], output 0 of Relu"
      # The tracer names the node's input: checked by pattern below.
      "print *g_relu_ir->producer_" ""
      "continue" ""
      # The eager run: the same lambda on a concrete tensor.
      "print X" "Value concrete tensor float[2,3] = {1, 2, 3, 4, 5, 6}"
      "print relu" "Value concrete tensor float[2,3] = {0.5, 1, 1.5, 2, 2.5, 3}"
      "info auto-load python-scripts" "Yes     onnxscript_printers.py")
  set(commands "break ${source_name}:${main_line}\nbreak ${source_name}:${lambda_line}\nrun\n")
  list(LENGTH checks count)
  math(EXPR last "${count} - 1")
  foreach(i RANGE 0 ${last} 2)
    list(GET checks ${i} command)
    string(APPEND commands "echo @@ ${command}\\n\n${command}\n")
  endforeach()
  string(APPEND commands "kill\n")
  run_gdb("${commands}")

  set(failures "")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET checks ${i} command)
    list(GET checks ${j} expected)
    if(expected STREQUAL "")
      continue()
    endif()
    # What gdb printed between this command's marker and the next one.
    string(FIND "${gdb_output}" "@@ ${command}\n" at)
    string(FIND "${gdb_output}" "@@ ${command}\n" at_last REVERSE)
    # Commands that repeat (print X) are told apart by their order.
    if(NOT at EQUAL at_last)
      set(seen_key "seen_${command}")
      string(MAKE_C_IDENTIFIER "${seen_key}" seen_key)
      if(DEFINED ${seen_key})
        string(LENGTH "@@ ${command}\n" marker_length)
        math(EXPR from "${${seen_key}} + ${marker_length}")
        string(SUBSTRING "${gdb_output}" ${from} -1 rest)
        string(FIND "${rest}" "@@ ${command}\n" at)
        math(EXPR at "${from} + ${at}")
      endif()
      set(${seen_key} ${at})
    endif()
    string(SUBSTRING "${gdb_output}" ${at} -1 rest)
    string(FIND "${rest}" "\n" eol)
    math(EXPR eol "${eol} + 1")
    string(SUBSTRING "${rest}" ${eol} -1 rest)
    string(FIND "${rest}" "@@ " next)
    string(SUBSTRING "${rest}" 0 ${next} printed)
    string(REGEX REPLACE "^\\$[0-9]+ = " "" printed "${printed}")
    string(STRIP "${printed}" printed)
    if(command MATCHES "^info auto-load")
      string(FIND "${printed}" "${expected}" found)
      if(found EQUAL -1)
        string(APPEND failures "  ${command}: expected a line with\n    ${expected}\n  got\n    ${printed}\n")
      endif()
    elseif(NOT printed STREQUAL expected)
      string(APPEND failures "  ${command}:\n    expected: ${expected}\n    got:      ${printed}\n")
    endif()
  endforeach()
  if(NOT gdb_output MATCHES "@@ print \\*g_relu_ir->producer_\n\\$[0-9]+ = ir::Node Relu domain=\"\" name=\"[^\"]*\" \\(\"[^\"]+\"\\) -> \\(\"R\"\\)\n")
    string(APPEND failures "  print *g_relu_ir->producer_: expected ir::Node Relu domain=\"\" name=\"...\" (\"...\") -> (\"R\")\n")
  endif()
  if(failures)
    message(FATAL_ERROR "the pretty printers printed something else:\n${failures}")
  endif()
  message(STATUS "every printer printed what was expected")

elseif(MODE STREQUAL "breakpoints")
  set(commands "")
  set(lines "")
  foreach(letter a b c d e)
    line_of("// line: ${letter}" line)
    list(APPEND lines ${line})
    # Prints the line the program stopped on: gdb moves a breakpoint on a
    # line without code of its own to the next line that has some.
    string(APPEND commands "break ${source_name}:${line}\ncommands\nsilent\n"
           "python print('@@ stop at %d' % gdb.selected_frame().find_sal().line)\n"
           "continue\nend\n")
  endforeach()
  string(APPEND commands "run\n")
  run_gdb("${commands}")
  set(failures "")
  foreach(line IN LISTS lines)
    string(REGEX MATCHALL "@@ stop at ${line}\n" hits "${gdb_output}")
    list(LENGTH hits n)
    # Once while tracing, once in the eager run.
    if(NOT n EQUAL 2)
      string(APPEND failures "  ${source_name}:${line} stopped ${n} times, not 2\n")
    endif()
  endforeach()
  if(NOT gdb_output MATCHES "exited normally")
    string(APPEND failures "  the program did not run to its end\n")
  endif()
  if(failures)
    message(FATAL_ERROR "breakpoints inside the script lambda:\n${failures}")
  endif()
  message(STATUS "each line of the lambda (${lines}) stopped twice: traced, then eager")
else()
  message(FATAL_ERROR "MODE must be printers or breakpoints, not '${MODE}'")
endif()
