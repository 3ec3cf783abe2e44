// A resource type that declares its pipeline is its one source: a config passed beside it
// is refused at compile time (ts::resource's runtime form requires !DeclaresPipeline<T>).
// EXPECT: DeclaresPipeline
#include "ts/core/resource.hpp"

struct Ring : ts::MemoryResource {
  static constexpr auto pipeline = ts::async_async({.num_stages = 2});
};
int main() {
  auto r = ts::resource("ring", Ring{}, ts::async_async({.num_stages = 4}));
  return r.decl()->pipeline->num_stages;
}
