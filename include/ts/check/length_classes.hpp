// Length classes (docs/checker.md, "Per-task loop lengths"): which tasks' runtime-length
// domain loops provably run the same number of iterations.
//
// Two loops are provably equally long when their (end - start) and step are equal as
// normalised affine forms (ir::Bound::form): the trip count ceil((end - start) / step)
// is then the same function of the same launch values. Tasks with such loops share one
// class; a task whose loop cannot be compared (no recorded form) is a class of its own.
// Where tasks of different classes interact, the checker may not give them one length.
#pragma once
#include <string>
#include <vector>

#include "ts/check/program.hpp"
#include "ts/schedule/model.hpp"

namespace ts::check {

// Fills TaskProgram::length_class, ProgramSet::length_classes, and marks
// ProgramSet::independent_lengths when two classes meet (share a pipe, an aliased pair,
// a shared condition key or PDL ordering, directly or through other tasks).
void assign_length_classes(Model const& m, ProgramSet& ps);

// Whether a domain loop provably runs one length in every work tile: each bound static or
// a recorded affine form over ts::runtime names, block_idx and grid_blocks only. A
// per-tile provider, tile_idx, thread or an opaque expression may differ between tiles
// (conservative: `false` only widens what the checker treats as real runs).
bool same_in_every_tile(ir::Block const& loop);

// A domain loop's length as printed: "tiles", "chunks(tile) + 1",
// "block_idx..12 step grid_blocks".
std::string loop_length_text(ir::Block const& loop);

// "Producer's domain loop (tiles) has length 3, Consumer's (tiles - 1) length 2": each
// class by its tasks and loop, with its length in `class_length`.
std::string describe_class_lengths(Model const& m, ProgramSet const& ps, std::vector<long long> const& class_length);

}  // namespace ts::check
