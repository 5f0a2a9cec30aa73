# Fails when a source file includes against the direction of the layers
# kernels <- sim <- frontend <- gpu <- student <- app (docs/design.md, "Layers"), or when
# kernels/ or sim/ include a UI, OpenGL or CUDA header. gpu/ and student/ have ranks of their
# own, so a loop between them (each including the other) always fails: the translation of a
# kernel file and its argument roles, which both use, live below them in frontend/.
#   cmake -DROOT=<repository or fixture root> -P check_layers.cmake
# A quoted include names its layer by its first folder ("sim/engine/trace.hpp"); a bare
# name ("context.cuh") is looked up beside the including file, then in kernels/. sim/'s
# sub-folders (engine, catalogue, teaching, files) are one layer. tests/, bench/ and build
# trees are not layered.
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<folder> -P check_layers.cmake")
endif()
set(rank_kernels 0)
set(rank_sim 1)
set(rank_frontend 2)
set(rank_gpu 3)
set(rank_student 4)
set(rank_app 5)
set(rank_tools 5)
# Headers that kernels/ and sim/ must never see: Dear ImGui, OpenGL and its loaders, GLFW,
# the CUDA runtime and its libraries.
set(forbidden_low "^(imgui|imgui_[a-z_]+\\.h|GL/|GLFW/|glad/|cuda|cuda_runtime|cublas|cublasLt|curand|device_launch_parameters|nvrtc|nvml)")

set(violations "")
foreach(layer kernels sim frontend gpu student app tools)
  file(GLOB_RECURSE files "${ROOT}/${layer}/*.cuh" "${ROOT}/${layer}/*.cu" "${ROOT}/${layer}/*.hpp"
       "${ROOT}/${layer}/*.cpp" "${ROOT}/${layer}/*.h")
  foreach(f IN LISTS files)
    file(RELATIVE_PATH rel "${ROOT}" "${f}")
    get_filename_component(dir "${f}" DIRECTORY)
    file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
    foreach(line IN LISTS lines)
      if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
        set(inc "${CMAKE_MATCH_1}")
        set(target_layer "")
        if(inc MATCHES "^(kernels|sim|frontend|gpu|student|app|tools)/")
          set(target_layer "${CMAKE_MATCH_1}")
        elseif(EXISTS "${dir}/${inc}")
          set(target_layer "${layer}")
        elseif(EXISTS "${ROOT}/kernels/${inc}")
          set(target_layer kernels)
        endif()
        if(target_layer AND rank_${target_layer} GREATER rank_${layer})
          string(APPEND violations "  ${rel}: #include \"${inc}\" reaches up from ${layer}/ into ${target_layer}/\n")
        endif()
      elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
        set(inc "${CMAKE_MATCH_1}")
        if(layer MATCHES "^(kernels|sim)$" AND inc MATCHES "${forbidden_low}")
          string(APPEND violations "  ${rel}: #include <${inc}>: ${layer}/ must not depend on UI, GL or CUDA headers\n")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "Includes against the layers kernels <- sim <- frontend <- gpu <- student <- app:\n${violations}")
endif()
message(STATUS "Layers kernels <- sim <- frontend <- gpu <- student <- app: every include points down.")
