// The schedule IR: what a schedule functor records on the host (SPEC S4).
//
// A schedule is a tree of blocks whose leaves are steps. Every consumer of the IR
// (validation passes, the exhaustive checker, the printout, the JSON export) reads
// this one structure; nothing keeps a second description of a schedule.
#pragma once
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ts/core/protocol.hpp"
#include "ts/core/work_traits.hpp"
#include "ts/schedule/affine.hpp"

namespace ts::ir {

// Where a step sits relative to the domain loop (SPEC S4.8).
enum class Section { Head, Loop, Tail };

enum class BlockKind {
  Root,
  DomainLoop,
  WorkTileLoop,
  Skippable,
  FirstIter,
  LastIter,
  Every,
  WhenTrue,
  WhenFalse,
};

// One loop bound (SPEC S4.2).
struct Bound {
  enum class Kind { Static, Runtime, PerTile };
  Kind kind = Kind::Static;
  long long value = 0;     // Static: the value; Runtime: value seen at capture, if known
  bool value_known = true; // Runtime bounds from thread/block indices are unknown on the host
  std::string expr;        // printable form, e.g. "8", "block_idx*256+thread", "Offsets::domain_size(tile)"
  int provider_resource = -1;  // PerTile: resource whose method computes the bound
  // The bound as a normalised affine form over the launch symbols, ts::runtime names and
  // per-tile providers (schedule/affine.hpp): what the checker compares to decide whether
  // two tasks' loops provably have the same length. `expr` stays the printed form.
  Affine form;
  bool form_known = false;  // false for bounds not built by the recorder: never provably equal
  // ts::runtime values this bound names, with the value seen at capture: one name must
  // mean one value in every task (checked after capture, capture.runtime-name-values).
  struct NamedValue {
    std::string name;
    long long value = 0;
    long long at_least = 0;  // ts::runtime(...).at_least(m): never below m
  };
  std::vector<NamedValue> named_values;
  // ts::at_least(m, bound) on a bound that is not a single ts::runtime value (e.g. a
  // per-tile provider): the whole bound is never below m.
  long long at_least = LLONG_MIN;
};

// `bound + k` / `bound - k` for a bound built by the recorder (a per-tile provider plus
// an offset, e.g. `ts::per_tile<&R::chunks>(r) + 1`): the offset goes into the value,
// the printed text and the affine form. In the executing contexts the bound is a plain
// integer and this is ordinary arithmetic.
Bound operator+(Bound b, long long k);
Bound operator-(Bound b, long long k);

// How a work_tile_loop decides to skip a tile (SPEC S4.5).
struct SkipIf {
  enum class Form { None, QueueMethod, ForeignMethod, FunctionQueueTile, FunctionTile };
  Form form = Form::None;
  std::string name;        // printable name of the predicate
  std::string owner_type;  // for methods: the class the method belongs to
};

// A child of a block: either a nested block or a step.
struct Node {
  bool is_block = false;
  int index = 0;  // into ScheduleIR::blocks or ScheduleIR::steps
};

struct Block {
  int id = 0;
  BlockKind kind = BlockKind::Root;
  int parent = -1;
  std::vector<Node> children;
  // DomainLoop
  Bound start, end, step;
  std::optional<int> unroll = 1;  // nullopt: compiler's choice
  // Every
  int period = 0, every_start = 0;
  // WhenTrue / WhenFalse
  int cond_slot = -1;
  std::string cond_key;     // correlation key (explicit, or the automatic resource.method.result)
  bool key_explicit = false;
  // WorkTileLoop
  int queue_resource = -1;
  SkipIf skip_if;
  // Guards (FirstIter, LastIter, Every) and BreakLoop refer to their loop block.
  int loop_block = -1;
};

// A task-local variable slot (SPEC S2.2): one per returned value of a work call.
struct Slot {
  int id = 0;
  std::string name;          // "<resource>.<method>.<result index or declared name>"
  std::string type;          // C++ type name
  std::string default_value; // printable default
  std::string doc;
  int producer_step = -1;    // the work step that writes it
  int result_index = 0;
};

struct Step {
  int id = 0;
  SyncOp kind = SyncOp::Work;  // what the step does (core/protocol.hpp: the ops and Work, BreakLoop)
  int resource = -1;           // global resource id (TaskManager's table)
  WorkRole role = WorkRole::Auxiliary;  // Work steps only
  std::string method;          // Work: "InputGmem::get_item"; sync ops: "acquire", ...
  std::vector<std::string> ct_args;  // compile-time arguments, e.g. {"1"} for load<1>
  std::vector<int> reads_slots;      // tokens consumed
  std::vector<int> writes_slots;     // slots produced
  int block = 0;               // innermost enclosing block
  Section section = Section::Head;
  int member = -1;             // pipeline-group member index of `resource`, -1 when not in a group
  // A collapsed group op (SPEC S10.3) records one step per member; they carry the
  // model's group index, and the first of them group_lead = true. -1: a plain op.
  int group = -1;
  bool group_lead = false;
  // Skip: how many stages the consumer passes over (static, or a runtime / per-tile
  // bound compared with the other turn-takers' loop lengths; docs/turns.md).
  Bound count;
};

struct ScheduleIR {
  std::string name;            // schedule functor type
  std::vector<Block> blocks;   // blocks[0] is the root
  std::vector<Step> steps;     // in program order
  std::vector<Slot> slots;
  int domain_loop = -1;        // block id of the domain loop, -1 when none
  int work_tile_loop = -1;     // block id of the work-tile loop, -1 when none
};

using ts::to_string;  // a step's kind (SyncOp) is named by the protocol vocabulary
std::string to_string(Section s);
std::string to_string(BlockKind k);
std::string to_string(Bound::Kind k);
std::string to_string(SkipIf::Form f);
std::string to_string(WorkRole r);

bool is_producer_sync(SyncOp k);  // TryAcquire, Acquire, Commit
bool is_consumer_sync(SyncOp k);  // TryWait, Wait, Release
bool is_sync(SyncOp k);

// "load<1>" for a work step (method without its class, with compile-time arguments),
// the op name ("acquire") otherwise.
std::string short_name(Step const& s);

// Blocks enclosing `block`, innermost first (block itself included).
std::vector<int> enclosing_blocks(ScheduleIR const& ir, int block);
bool inside(ScheduleIR const& ir, int block, BlockKind kind);

// Domain-lane interleaving (SPEC S3.3, S6.12): when the task's first `op` step on
// `resource` sits in a domain loop whose step is the static value `stride` (> 1) and
// whose start is a known value in [0, stride), that start is the task's lane: its stage
// counter for the op starts there. -1 otherwise (not domain-lane, or not a valid lane).
int domain_lane(ScheduleIR const& ir, int resource, SyncOp op, int stride);

}  // namespace ts::ir
