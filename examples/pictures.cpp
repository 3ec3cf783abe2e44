// ts_pictures <out-dir>: writes the dependency graph (DOT, Mermaid) and the schedule
// picture (self-contained HTML) of every example into out-dir.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "copy/copy_examples.hpp"
#include "ts/print/pictures.hpp"

namespace {
template <class TM>
void write_all(std::filesystem::path const& dir, std::string const& name, TM const& tm) {
  std::ofstream(dir / (name + ".dot")) << ts::print::dependency_dot(tm.model(), name);
  std::ofstream(dir / (name + ".mmd")) << ts::print::dependency_mermaid(tm.model());
  std::ofstream(dir / (name + ".html")) << ts::print::schedule_html(tm.model(), "TS schedule: " + name);
  std::cout << "wrote " << (dir / name).string() << ".{dot,mmd,html}\n";
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: ts_pictures <out-dir>\n";
    return 2;
  }
  std::filesystem::path dir(argv[1]);
  std::filesystem::create_directories(dir);
  ts::Options quiet{.verbose = false, .exhaustive_check = false};
  examples::CopyBuffers b(1000);
  write_all(dir, "01_grid_stride_copy", examples::make_grid_stride_copy(b, quiet));
  write_all(dir, "02_pipelined_copy", examples::make_pipelined_copy(b, quiet));
  return 0;
}
