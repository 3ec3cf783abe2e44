// S6.10 when one of two consumer tasks forgets its release(): the diagnostic used to
// blame the task that does release and hint to lower the empty count to its share,
// which makes the producer overwrite a stage the other task still reads (a race).
// Now it names the task missing the release and says to keep the count.
#include "verify_fixtures.hpp"

using namespace vt;

namespace {

struct ConsumeNoRelease {
  template <class S, class B, class Out>
  void operator()(S& s, B& b, Out& out) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.wait();
      ts::work<&Dst::store>(out, ts::work<&Buf::take>(b));
    });
  }
};
struct ProduceNoCommit {
  template <class S, class In, class B>
  void operator()(S& s, In& in, B& b) const {
    s.domain_loop(0LL, 8LL, 1LL, [&](auto&) {
      b.acquire();
      ts::work<&Buf::put>(b, ts::work<&Src::load>(in));
    });
  }
};

// One producer, two one-warp consumers C1 and C2 declared together (64 threads).
template <class SecondConsumer>
auto two_consumers() {
  auto in = ts::resource("in", Src{});
  auto out1 = ts::resource("out1", Dst{});
  auto out2 = ts::resource("out2", Dst{});
  auto buf = ts::resource("buf", Buf{}, async_cfg(2, {ts::Agent::Thread, 32}, {ts::Agent::Thread, 64}));
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(Produce{}, in, buf);
  auto c1 = ts::Task("C1").warps(1, 1).reads(buf).writes(out1).schedule(Consume{}, buf, out1);
  auto c2 = ts::Task("C2").warps(2, 1).reads(buf).writes(out2).schedule(SecondConsumer{}, buf, out2);
  return ts::TaskManager(ts::tasks(p, c1, c2), ts::DependencyGraph{{buf, {in}}, {out1, {buf}}, {out2, {buf}}},
                         quiet());
}

// Two one-warp producers P1 and P2 declared together; P2 never commits.
auto two_producers() {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, async_cfg(2, {ts::Agent::Thread, 64}, {ts::Agent::Thread, 32}));
  auto p1 = ts::Task("P1").warps(0, 1).reads(in).writes(buf).schedule(Produce{}, in, buf);
  auto p2 = ts::Task("P2").warps(1, 1).reads(in).writes(buf).schedule(ProduceNoCommit{}, in, buf);
  auto c = ts::Task("C").warps(2, 1).reads(buf).writes(out).schedule(Consume{}, buf, out);
  return ts::TaskManager(ts::tasks(p1, p2, c), ts::DependencyGraph{{buf, {in}}, {out, {buf}}}, quiet());
}

}  // namespace

TEST(BadInputArrivals, ForgottenReleaseBlamesTheTaskMissingIt) {
  auto ds = diags(two_consumers<ConsumeNoRelease>());
  auto d = find(ds, "S6.10.empty-arrivals");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "C2");
  EXPECT_EQ(d->resource, "buf");
  EXPECT_EQ(d->step_text, "buf.wait()");
  EXPECT_NE(d->message.find("task 'C2' calls buf.wait() but never buf.release()"), std::string::npos) << d->format();
  EXPECT_EQ(d->expected, "buf.release() in 'C2'");
  EXPECT_EQ(d->actual, "no release()");
  EXPECT_NE(d->hint.find("add buf.release() to 'C2'"), std::string::npos) << d->format();
  EXPECT_NE(d->hint.find("keep the declared count"), std::string::npos) << d->format();
  // No second diagnostic blames C1 or hints to lower the count.
  for (auto const& x : ds) {
    EXPECT_NE(x.task, "C1") << all(ds);
    EXPECT_EQ(x.hint.find("{ts::Agent::Thread, 32}"), std::string::npos) << all(ds);
  }
}

TEST(BadInputArrivals, ForgottenCommitBlamesTheTaskMissingIt) {
  auto ds = diags(two_producers());
  auto d = find(ds, "S6.10.full-arrivals");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->task, "P2");
  EXPECT_EQ(d->step_text, "buf.acquire()");
  EXPECT_EQ(d->expected, "buf.commit() in 'P2'");
}

TEST(BadInputArrivals, NearMissBothConsumersReleasePasses) {
  auto ds = diags(two_consumers<Consume>());
  EXPECT_FALSE(has(ds, "S6.10")) << all(ds);
}
