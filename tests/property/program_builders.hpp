// Small helpers for writing Programs by hand (interpreter tests, generator building blocks).
#pragma once
#include "schedule_program.hpp"

namespace prop::build {

inline Node op(Op o, int res = 0) { return Node{o, res, 0, 2, 0, {}}; }
inline Node block(Op o, std::vector<Node> body, int key = 0) { return Node{o, 0, key, 2, 0, std::move(body)}; }
inline Node every(int period, int start, std::vector<Node> body) { return Node{Op::Every, 0, 0, period, start, std::move(body)}; }
inline std::vector<Node> produce(int r) { return {op(Op::Acquire, r), op(Op::Put, r), op(Op::Commit, r)}; }
inline std::vector<Node> consume(int r) { return {op(Op::Wait, r), op(Op::Take, r), op(Op::Release, r)}; }
inline void append(std::vector<Node>& to, std::vector<Node> const& ops) { to.insert(to.end(), ops.begin(), ops.end()); }
inline MemSpec ring(int stages) { return MemSpec{PipeKind::AsyncAsync, stages, -1, 0, false}; }

}  // namespace prop::build
