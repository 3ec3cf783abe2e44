// Optional documentation of a work method's task-local slots (SPEC S2.2):
//
//   TS_WORK_SLOTS(&InputGmem::get_item,
//                 ts::Slot<int16_t>{"item", 0, "Input element at loop_offset."});
//
// Without it a slot is named after its method and result index and defaults to T{}.
#pragma once
#include <tuple>

namespace ts {

template <class T>
struct Slot {
  const char* name;
  T default_value;
  const char* doc;
};

template <auto M>
struct work_slots {
  static constexpr bool declared = false;
};

}  // namespace ts

#define TS_WORK_SLOTS(M, ...)                             \
  template <>                                             \
  struct ts::work_slots<M> {                              \
    static constexpr bool declared = true;                \
    static constexpr auto value = std::make_tuple(__VA_ARGS__); \
  }
