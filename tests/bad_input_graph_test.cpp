// S6.3.edge-without-task: a dependency-graph edge `down <- up` needs one task that reads
// `up` and writes `down`. Before, {out, {in}} for in -> P -> buf -> C -> out passed,
// because some task reads `in` and some (other) task writes `out`.
#include "verify_fixtures.hpp"

using namespace vt;

namespace {

auto pipeline_with_graph(bool right) {
  auto in = ts::resource("in", Src{});
  auto out = ts::resource("out", Dst{});
  auto buf = ts::resource("buf", Buf{}, async_cfg());
  auto p = ts::Task("P").warps(0, 1).reads(in).writes(buf).schedule(Produce{}, in, buf);
  auto c = ts::Task("C").warps(1, 1).reads(buf).writes(out).schedule(Consume{}, buf, out);
  ts::DependencyGraph g = right ? ts::DependencyGraph{{buf, {in}}, {out, {buf}}}
                                : ts::DependencyGraph{{buf, {in}}, {out, {in}}, {buf, {}}};
  return ts::TaskManager(ts::tasks(p, c), g, quiet());
}

}  // namespace

TEST(BadInputGraph, EdgeNamingTheWrongUpstreamRejected) {
  auto ds = diags(pipeline_with_graph(false));
  auto d = find(ds, "S6.3.edge-without-task");
  ASSERT_TRUE(d) << all(ds);
  EXPECT_EQ(d->resource, "out");
  EXPECT_EQ(d->task, "C");
  EXPECT_NE(d->message.find("the edge 'out' <- 'in'"), std::string::npos) << d->format();
  EXPECT_NE(d->message.find("reading 'in': P; writing 'out': C"), std::string::npos) << d->format();
  EXPECT_EQ(d->expected, "a task with .reads(in).writes(out)");
  EXPECT_EQ(d->actual, "none");
  EXPECT_NE(d->hint.find("{out, {buf}}"), std::string::npos) << d->format();
}

TEST(BadInputGraph, NearMissRightUpstreamPasses) {
  auto ds = diags(pipeline_with_graph(true));
  EXPECT_TRUE(ds.empty()) << all(ds);
}
