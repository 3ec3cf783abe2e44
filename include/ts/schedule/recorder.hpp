// ScheduleRecorder: the host-side builder of the schedule IR, and the recording
// context / handles a schedule functor is instantiated with on the host.
//
// Recording runs each block body exactly once; a step is appended for every sync op
// and work call, in program order. Structural misuse visible here (a second domain
// loop, a guard used after its loop closed, a zero static step ...) throws a
// ts::CaptureError naming the schedule, the construct and what was expected.
#pragma once
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ts/core/errors.hpp"
#include "ts/schedule/model.hpp"
#include "ts/core/work_traits.hpp"
#include "ts/schedule/ir.hpp"
#include "ts/schedule/key.hpp"
#include "ts/schedule/names.hpp"
#include "ts/schedule/slots.hpp"
#include "ts/schedule/symbolic.hpp"
#include "ts/schedule/runtime_value.hpp"
#include "ts/schedule/unroll.hpp"

namespace ts {

// A task-local variable as seen by the recorder: it names the slot that holds the value.
template <class T>
struct Token {
  using value_type = T;
  int slot = -1;
};
template <class T>
struct is_token : std::false_type {};
template <class T>
struct is_token<Token<T>> : std::true_type {};



struct ResourceInfoForRecording {
  std::string name;
  bool pipelined = false;
  bool is_queue = false;
  // Pipeline-group membership (SPEC S10): the model's group index (-1: none) and the
  // group itself (owned by the Model, which outlives the recording).
  int group = -1;
  int group_member = -1;
  GroupModel const* group_model = nullptr;
};

class ScheduleRecorder {
 public:
  ScheduleRecorder(std::string schedule_name, std::string task_name,
                   std::vector<ResourceInfoForRecording> resources);

  // --- blocks ---
  int open_block(ir::BlockKind kind);
  void close_block(int id);
  ir::Block& block(int id) { return ir_.blocks[id]; }
  int current_block() const { return open_.back(); }
  bool is_open(int block_id) const;

  int open_domain_loop(ir::Bound start, ir::Bound end, ir::Bound step, std::optional<int> unroll);
  void close_domain_loop(int id);
  int open_work_tile_loop(int queue_resource, ir::SkipIf skip);
  void close_work_tile_loop(int id);
  int open_guard(ir::BlockKind kind, int loop_block, int period = 0, int start = 0);
  int open_skippable(int tile_loop_block);
  int open_condition(ir::BlockKind kind, int slot, const char* explicit_key);
  void break_loop(int loop_block);

  // --- steps ---
  int add_sync(SyncOp kind, int resource);
  void set_step_count(int step, ir::Bound count);  // SyncOp::Skip's stage count
  // A collapsed op of a pipeline group (ts::group(a, b).release()): one step per member,
  // in the group's member order, each tagged with the group (SPEC S10.3).
  void add_group_sync(SyncOp kind, std::vector<int> const& handles);
  int add_work(int resource, WorkRole role, std::string method, std::vector<int> reads,
               int num_results, std::vector<std::string> ct_args);
  void describe_slot(int slot, std::string name, std::string type, std::string default_value,
                     std::string doc);
  void check_token(int slot, int resource, std::string const& method, int arg_index);
  int first_slot(int step) const { return ir_.steps.at(step).writes_slots.at(0); }

  [[noreturn]] void fail(std::string check, std::string message, std::string expected = {},
                         std::string actual = {}, int resource = -1) const;

  ir::ScheduleIR finish();
  std::string const& resource_name(int r) const { return resources_.at(r).name; }
  int ir_domain_loop() const { return ir_.domain_loop; }
  int ir_work_tile_loop() const { return ir_.work_tile_loop; }
  ResourceInfoForRecording const& resource(int r) const { return resources_.at(r); }

 private:
  ir::Section current_section() const;
  void add_child(ir::Node n);

  ir::ScheduleIR ir_;
  std::string task_;
  std::vector<ResourceInfoForRecording> resources_;
  std::vector<int> open_;
  enum class DomainState { Before, Inside, After } domain_state_ = DomainState::Before;
};

namespace rec {

// A block body is `[&] {...}` or `[&](auto& handle) {...}`.
template <class F, class H>
void invoke_body(F& body, H& h) {
  if constexpr (std::is_invocable_v<F&, H&>) body(h);
  else body();
}

ir::Bound to_bound(long long v);
ir::Bound to_bound(Sym const& s);
ir::Bound to_bound(RuntimeValue const& v);
inline ir::Bound to_bound(ir::Bound const& b) { return b; }

// Domain-loop handle given to the loop body (guards and break live on it).
class DomainLoopHandle {
 public:
  DomainLoopHandle(ScheduleRecorder* r, int block) : rec_(r), block_(block) {}
  template <class F>
  void first_iter(F&& body) { guarded(ir::BlockKind::FirstIter, 0, 0, body); }
  template <class F>
  void last_iter(F&& body) { guarded(ir::BlockKind::LastIter, 0, 0, body); }
  template <class F>
  void every(int period, int start, F&& body) { guarded(ir::BlockKind::Every, period, start, body); }
  template <class F>
  void every(int period, F&& body) { guarded(ir::BlockKind::Every, period, 0, body); }
  void break_loop() { rec_->break_loop(block_); }

 private:
  template <class F>
  void guarded(ir::BlockKind kind, int period, int start, F& body) {
    int id = rec_->open_guard(kind, block_, period, start);
    body();
    rec_->close_block(id);
  }
  ScheduleRecorder* rec_;
  int block_;
};

class WorkTileLoopHandle {
 public:
  WorkTileLoopHandle(ScheduleRecorder* r, int block) : rec_(r), block_(block) {}
  template <class F>
  void skippable(F&& body) {
    int id = rec_->open_skippable(block_);
    body();
    rec_->close_block(id);
  }
  Sym tile_idx() const { return Sym{"tile_idx", false, 0}; }

 private:
  ScheduleRecorder* rec_;
  int block_;
};

// The collapsed side of a pipeline group as a recording schedule sees it (ts::group).
class GroupView {
 public:
  GroupView(ScheduleRecorder* r, std::vector<int> ids) : rec_(r), ids_(std::move(ids)) {}
  void try_acquire() const { rec_->add_group_sync(SyncOp::TryAcquire, ids_); }
  void acquire() const { rec_->add_group_sync(SyncOp::Acquire, ids_); }
  void commit() const { rec_->add_group_sync(SyncOp::Commit, ids_); }
  void try_wait() const { rec_->add_group_sync(SyncOp::TryWait, ids_); }
  void wait() const { rec_->add_group_sync(SyncOp::Wait, ids_); }
  void release() const { rec_->add_group_sync(SyncOp::Release, ids_); }

 private:
  ScheduleRecorder* rec_;
  std::vector<int> ids_;
};

// A resource as a recording schedule sees it.
template <class T>
class Handle {
 public:
  using resource_type = T;
  Handle(ScheduleRecorder* r, int id, T const* value) : rec_(r), id_(id), value_(value) {}
  T const* operator->() const { return value_; }
  T const& get() const { return *value_; }
  int id() const { return id_; }
  ScheduleRecorder* recorder() const { return rec_; }

  void try_acquire() const { rec_->add_sync(SyncOp::TryAcquire, id_); }
  void acquire() const { rec_->add_sync(SyncOp::Acquire, id_); }
  void commit() const { rec_->add_sync(SyncOp::Commit, id_); }
  void try_wait() const { rec_->add_sync(SyncOp::TryWait, id_); }
  void wait() const { rec_->add_sync(SyncOp::Wait, id_); }
  void release() const { rec_->add_sync(SyncOp::Release, id_); }
  // Turn-taking consumers (docs/turns.md): pass over `n` stages that another consumer
  // task of this ring waits for and releases, without waiting (CUTLASS's ping-pong
  // PipelineState::advance(k_tiles)). `n` is any loop bound: a constant, ts::runtime(...),
  // a per-tile provider.
  template <class B>
  void skip(B const& n) const {
    int s = rec_->add_sync(SyncOp::Skip, id_);
    rec_->set_step_count(s, rec::to_bound(n));
  }
  // ts::group(this, others...) (schedule/group.hpp).
  template <class... H>
  GroupView group_with(H const&... others) const {
    return GroupView(rec_, std::vector<int>{id_, others.id()...});
  }
  // Work-queue bookkeeping (SPEC S4.6); only queues have them.
  void get_and_advance_work_tile() const requires requires { T::is_work_queue; } {
    rec_->add_sync(SyncOp::Advance, id_);
  }
  void fetch_work_tile() const requires requires { T::is_work_queue; } {
    rec_->add_sync(SyncOp::Fetch, id_);
  }
  template <auto M>
  ir::Bound per_tile() const {
    ir::Bound b;
    b.kind = ir::Bound::Kind::PerTile;
    b.value_known = false;
    b.expr = member_name<M>() + "(tile)";
    b.provider_resource = id_;
    // The provider is the resource and its method: two tasks calling the same method of
    // the same resource get the same bound in every tile.
    b.form = ir::Affine::of_symbol(rec_->resource_name(id_) + "." + member_name<M>() + "(tile)");
    b.form_known = true;
    return b;
  }
  template <auto M, class... A>
  auto invoke(A const&... args) const {
    using W = work_traits<M>;
    static_assert(std::is_base_of_v<typename W::owner, T>,
                  "ts::work<M>(h): M is a method of another resource type than the handle's resource");
    static_assert(sizeof...(A) == W::token_params::size,
                  "ts::work<M>(h, tokens...): the number of tokens differs from the method's data parameters");
    static_assert((is_token<A>::value && ...),
                  "ts::work<M>(h, tokens...): data arguments must be tokens returned by consumer/auxiliary work");
    std::string name = member_name<M>();
    std::vector<int> reads;
    check_args<M>(reads, name, std::make_index_sequence<sizeof...(A)>{}, args...);
    constexpr int nres = static_cast<int>(W::slots::size);
    int step = rec_->add_work(id_, W::role, name, reads, nres, ct_values(typename W::ct_params{}));
    return make_tokens<M>(step, typename W::slots{});
  }

 private:
  template <class... C>
  static std::vector<std::string> ct_values(detail::type_list<C...>) {
    std::vector<std::string> v;
    (v.push_back(printable(C::value)), ...);
    return v;
  }
  template <auto M, std::size_t... Is, class... A>
  void check_args(std::vector<int>& reads, std::string const& name, std::index_sequence<Is...>,
                  A const&... args) const {
    using Params = typename work_traits<M>::token_params;
    (check_one<typename std::tuple_element<Is, typename as_tuple<Params>::type>::type>(reads, name, int(Is), args),
     ...);
  }
  template <class L>
  struct as_tuple;
  template <class... Ts>
  struct as_tuple<detail::type_list<Ts...>> {
    using type = std::tuple<std::remove_cvref_t<Ts>...>;
  };
  template <class P, class A>
  void check_one(std::vector<int>& reads, std::string const& name, int idx, A const& tok) const {
    static_assert(std::is_same_v<typename A::value_type, P>,
                  "ts::work<M>(h, tokens...): a token's type differs from the method's parameter type");
    rec_->check_token(tok.slot, id_, name, idx);
    reads.push_back(tok.slot);
  }
  template <auto M, class... S>
  auto make_tokens(int step, detail::type_list<S...>) const {
    int first = sizeof...(S) ? rec_->first_slot(step) : -1;
    [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      (describe<M, S>(first + int(Is), int(Is)), ...);
    }(std::index_sequence_for<S...>{});
    if constexpr (sizeof...(S) == 0) {
      return;
    } else if constexpr (sizeof...(S) == 1) {
      return Token<S...>{first};
    } else {
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return Results<Token<S>...>{Token<S>{first + int(Is)}...};
      }(std::index_sequence_for<S...>{});
    }
  }
  template <auto M, class S>
  void describe(int slot, int result_index) const {
    std::string nm = rec_->resource_name(id_) + "." + short_method(member_name<M>()) + "." +
                     std::to_string(result_index);
    std::string def = printable(S{});
    std::string doc;
    if constexpr (work_slots<M>::declared) {
      constexpr auto n = std::tuple_size_v<std::decay_t<decltype(work_slots<M>::value)>>;
      static_assert(n == work_traits<M>::slots::size, "TS_WORK_SLOTS: one ts::Slot per returned value");
      std::string declared;
      visit_slot<M, S>(result_index, declared, def, doc, std::make_index_sequence<n>{});
      nm = rec_->resource_name(id_) + "." + declared;
    }
    rec_->describe_slot(slot, nm, type_name<S>(), def, doc);
  }
  template <auto M, class S, std::size_t... Is>
  static void visit_slot(int want, std::string& nm, std::string& def, std::string& doc, std::index_sequence<Is...>) {
    (
        [&] {
          if (int(Is) == want) {
            auto const& s = std::get<Is>(work_slots<M>::value);
            nm = std::string(s.name);
            def = printable(s.default_value);
            doc = s.doc;
          }
        }(),
        ...);
  }
  template <class V>
  static std::string printable(V const& v) {
    if constexpr (std::is_same_v<V, bool>) {
      return v ? "true" : "false";
    } else if constexpr (std::is_arithmetic_v<V>) {
      std::ostringstream os;
      os << +v;
      return os.str();
    } else {
      return "{}";
    }
  }
  static std::string short_method(std::string const& m) {
    auto p = m.rfind("::");
    return p == std::string::npos ? m : m.substr(p + 2);
  }
  ScheduleRecorder* rec_;
  int id_;
  T const* value_;
};

// The recording schedule context: the `s` a schedule functor receives on the host.
class Context {
 public:
  Context(ScheduleRecorder* r, int task_threads) : rec_(r), task_threads_(task_threads) {}
  static constexpr bool is_recording = true;

  // Thread geometry. task_threads is known at capture; the rest is runtime.
  int task_threads() const { return task_threads_; }
  Sym task_thread() const { return Sym{"thread", false, 0}; }
  Sym block_idx() const { return Sym{"block_idx", false, 0}; }
  Sym grid_blocks() const { return Sym{"grid_blocks", false, 0}; }
  Sym global_thread() const { return block_idx() * task_threads_ + task_thread(); }
  Sym grid_threads() const { return grid_blocks() * task_threads_; }
  template <class B0, class B1, class B2, class F>
  void domain_loop(B0 const& start, B1 const& end, B2 const& step, F&& body) {
    domain_loop(start, end, step, Unroll<1>{}, body);
  }
  template <class B0, class B1, class B2, int N, class F>
  void domain_loop(B0 const& start, B1 const& end, B2 const& step, Unroll<N>, F&& body) {
    std::optional<int> u;
    if (N > 0) u = N;
    int id = rec_->open_domain_loop(rec::to_bound(start), rec::to_bound(end), rec::to_bound(step), u);
    DomainLoopHandle d(rec_, id);
    invoke_body(body, d);
    rec_->close_domain_loop(id);
  }
  template <class Q, class F>
  void work_tile_loop(Handle<Q> const& wq, F&& body) {
    tile_loop_impl(wq, ir::SkipIf{}, body);
  }
  // skip_if forms (SPEC S4.5): ts::skip_if<&Queue::method>, ts::skip_if<&fn(queue, tile)>,
  // ts::skip_if<&fn(tile)>; see schedule/skip_if.hpp.
  template <class Q, class S, class F>
  void work_tile_loop(Handle<Q> const& wq, S skip, F&& body) {  // by value: see skip_if.hpp
    tile_loop_impl(wq, skip_predicate(skip).template describe<Q>(), body);
  }
  template <class C, class F>
  void when_true(Token<C> const& cond, F&& body) { condition(ir::BlockKind::WhenTrue, cond, nullptr, body); }
  template <class C, class F>
  void when_false(Token<C> const& cond, F&& body) { condition(ir::BlockKind::WhenFalse, cond, nullptr, body); }
  template <class C, class F>
  void when_true(Token<C> const& cond, Key key, F&& body) { condition(ir::BlockKind::WhenTrue, cond, key.name, body); }
  template <class C, class F>
  void when_false(Token<C> const& cond, Key key, F&& body) { condition(ir::BlockKind::WhenFalse, cond, key.name, body); }

  // Guards, break and skippable on the context: they refer to the schedule's one
  // domain loop / work-tile loop and are rejected outside it, like the handle forms.
  template <class F>
  void first_iter(F&& body) { DomainLoopHandle(rec_, rec_->ir_domain_loop()).first_iter(body); }
  template <class F>
  void last_iter(F&& body) { DomainLoopHandle(rec_, rec_->ir_domain_loop()).last_iter(body); }
  template <class F>
  void every(int period, int start, F&& body) { DomainLoopHandle(rec_, rec_->ir_domain_loop()).every(period, start, body); }
  template <class F>
  void every(int period, F&& body) { every(period, 0, body); }
  void break_loop() { DomainLoopHandle(rec_, rec_->ir_domain_loop()).break_loop(); }
  template <class F>
  void skippable(F&& body) { WorkTileLoopHandle(rec_, rec_->ir_work_tile_loop()).skippable(body); }

  ScheduleRecorder* recorder() const { return rec_; }

 private:
  template <class Q, class F>
  void tile_loop_impl(Handle<Q> const& wq, ir::SkipIf skip, F& body) {
    static_assert(requires { Q::is_work_queue; }, "work_tile_loop(wq, ...): wq must be a ts::WorkQueue resource");
    int id = rec_->open_work_tile_loop(wq.id(), std::move(skip));
    WorkTileLoopHandle h(rec_, id);
    invoke_body(body, h);
    rec_->close_work_tile_loop(id);
  }
  template <class C, class F>
  void condition(ir::BlockKind kind, Token<C> const& cond, const char* key, F& body) {
    static_assert(std::is_same_v<C, bool> || std::is_integral_v<C>,
                  "when_true/when_false: the condition token must be bool or an integer type");
    int id = rec_->open_condition(kind, cond.slot, key);
    body();
    rec_->close_block(id);
  }

  ScheduleRecorder* rec_;
  int task_threads_;
};

}  // namespace rec
// ts::at_least(m, bound) while recording (schedule/runtime_value.hpp): the bound is never
// below m, so a loop `domain_loop(0, bound, 1)` provably runs.
inline ir::Bound at_least(long long m, ir::Bound b) {
  b.at_least = std::max(b.at_least, m);
  return b;
}

}  // namespace ts
