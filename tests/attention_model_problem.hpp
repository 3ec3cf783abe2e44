// The attention problem the model tests capture (the model does not depend on the data):
// causal, varlen (300 and 512 tokens), GQA 6:2. `shared`: planned for the shared-K/V shape
// (128-row Q blocks), else for the pair shape's per-group blocks.
#pragma once
#include <vector>

#include "attention/attention_host.hpp"
#include "attention/attention_shared.hpp"

namespace attn_test {

template <int D>
attn::Problem model_problem(std::vector<attn::QBlock>& blocks, bool shared) {
  attn::Shape s{{0, 300, 812}, 6, 2, D, true};
  blocks = attn::plan_blocks<D>(s, shared ? attn::shared::kRows : attn::Dims<D>::kBlockM);
  attn::Problem p;
  p.plan.blocks = blocks.data();
  p.plan.num_blocks = int(blocks.size());
  p.plan.hq = 6;
  p.plan.hkv = 2;
  p.plan.head_pairs = 3;
  p.plan.total_tokens = 812;
  p.plan.causal = 1;
  p.plan.shared = shared ? 1 : 0;
  return p;
}

}  // namespace attn_test
