# Installs the build tree BUILD_DIR into a fresh prefix under WORK_DIR, then
# configures, builds and runs the out-of-tree project CONSUMER_DIR against
# that prefix alone (CMAKE_PREFIX_PATH; no path into the build or source
# tree). Fails on the first step that fails, with its output.
# Variables: BUILD_DIR, WORK_DIR, CONSUMER_DIR.
set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

step("installing ${BUILD_DIR}" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(expected lib/cmake/onnxscript/onnxscriptConfig.cmake include/onnxscript/onnxscript.h
                 include/onnxscript/opsets/opset17.h bin/onnxscript)
  if(NOT EXISTS ${prefix}/${expected})
    message(FATAL_ERROR "the install has no ${expected}")
  endif()
endforeach()
step("configuring the consumer" ${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${consumer_build} -G Ninja
     -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
step("building the consumer" ${CMAKE_COMMAND} --build ${consumer_build})
step("running the consumer" ${consumer_build}/consumer ${WORK_DIR})
if(NOT step_output MATCHES "consumer: ok")
  message(FATAL_ERROR "the consumer ran but did not say ok:\n${step_output}")
endif()
# The installed tool runs from the prefix and reads what the consumer wrote.
step("running the installed tool" ${prefix}/bin/onnxscript check ${WORK_DIR}/scaled_relu.onnx)
message(STATUS "installed, built and ran the consumer against ${prefix}")
