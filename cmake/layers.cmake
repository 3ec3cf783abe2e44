# The layer map of TS: the one place that says which directories make up each layer and
# which layers each may include (docs/architecture.md, "Layers"). Read by
#   - CMakeLists.txt: one library target per layer (ts_<layer>, alias ts::<layer>), linking
#     exactly the layers it USES;
#   - scripts/check_layers.py (ctest layers.no_upward_includes): every #include under
#     include/ts and src must stay inside its layer or reach a layer it USES.
#
# ts_layer(<name> TARGET <target> DIRS <dir>... [FILES <file>...] USES <layer>...)
#   DIRS  directories whose files (not subdirectories) belong to the layer;
#   FILES single files that belong to it although they sit in another layer's directory
#         (FILES win over DIRS);
#   USES  the layers it may include and link, listed in full (nothing is transitive).
# A layer without sources under src/ is header-only (an INTERFACE target).
# ts_forwarding_header(<file> <header>): a documented forwarding header kept for an old
# include path: it belongs to the layer of <header>, and nothing in the library includes it.
#
# Keep one call per layer and the arguments plain words: the script parses this file.

ts_layer(core TARGET ts_core
  DIRS include/ts/core src/core
  USES)

# Backend primitives (PTX wrappers, the sm_90a Arch, the portable work-body layer that the
# emulator implements in src/runtime/cpu); header-only.
ts_layer(arch TARGET ts_arch
  DIRS include/ts/arch
  USES core)

ts_layer(schedule TARGET ts_schedule
  DIRS include/ts/schedule src/schedule
  FILES include/ts/schedule.hpp
  USES core)

ts_layer(verify TARGET ts_verify
  DIRS include/ts/verify src/verify
  USES core schedule)

ts_layer(check TARGET ts_check
  DIRS include/ts/check src/check
  USES core schedule)

# Printouts; the counterexample pictures and the schedule simulation read the checker's types.
ts_layer(print TARGET ts_print
  DIRS include/ts/print src/print
  USES core schedule check)

# The executing context, pipeline runtime, launch layout, dispatch, kernel parameters.
ts_layer(runtime TARGET ts_runtime
  DIRS include/ts/runtime include/ts/runtime/pipeline include/ts/runtime/scheduler src/runtime
  USES core schedule)

ts_layer(runtime_cpu TARGET ts_runtime_cpu
  DIRS include/ts/runtime/cpu src/runtime/cpu
  USES core arch schedule check runtime)

ts_layer(runtime_cuda TARGET ts_runtime_cuda
  DIRS include/ts/runtime/cuda
  USES core arch schedule runtime)

# The top: TaskManager (records, prints, verifies, checks, lays out) and the umbrella
# header ts/ts.hpp. Its target is ts_host, exported as ts::ts, which links every layer.
ts_layer(api TARGET ts_host
  DIRS include/ts src
  USES core arch schedule verify check print runtime runtime_cpu runtime_cuda)


# Headers that moved to their layer, kept at the old path for users (documented in each file
# and in docs/architecture.md).
ts_forwarding_header(include/ts/core/model.hpp ts/schedule/model.hpp)
ts_forwarding_header(include/ts/core/validation.hpp ts/schedule/validation.hpp)
ts_forwarding_header(include/ts/verify/checker.hpp ts/check/checker.hpp)
