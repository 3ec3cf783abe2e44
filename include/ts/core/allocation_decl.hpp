// Host-side record of one declared allocation, and the collector a resource fills.
#pragma once
#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "ts/core/allocation.hpp"

namespace ts {

// Readable C++ type name from a mangled one (typeid(T).name()).
std::string demangle(char const* mangled);

enum class MemSpace { Smem, Tmem };
// Which side of the resource touches an allocation (for the race checker, S2.6).
enum class AccessSide { Both, Producer, Consumer };

struct AllocationDecl {
  std::string name;
  MemSpace space = MemSpace::Smem;
  std::string element_type;
  int element_bytes = 1;
  long long count = 0;       // elements (SMEM) or columns (TMEM)
  int alignment = 128;       // bytes (SMEM); columns are allocated in powers of two
  AccessSide side = AccessSide::Both;
  std::string alias_group;   // empty: not aliased (S9.4)
  int alias_phase = 0;
  uint32_t* placement = nullptr;  // the handle field the allocator writes (offset or column)
  long long bytes() const { return space == MemSpace::Smem ? count * element_bytes : 0; }

  AllocationDecl& producer_side() { side = AccessSide::Producer; return *this; }
  AllocationDecl& consumer_side() { side = AccessSide::Consumer; return *this; }
  AllocationDecl& alias(std::string group, int phase) {
    alias_group = std::move(group);
    alias_phase = phase;
    return *this;
  }
};

class Allocations {
 public:
  template <class T>
  AllocationDecl& smem(std::string name, SmemArray<T>& handle, long long count, int alignment = 128) {
    handle.count = static_cast<uint32_t>(count);
    AllocationDecl d;
    d.name = std::move(name);
    d.space = MemSpace::Smem;
    d.element_type = demangle(typeid(T).name());
    d.element_bytes = static_cast<int>(sizeof(T));
    d.count = count;
    d.alignment = alignment;
    d.placement = &handle.offset;
    decls_.push_back(d);
    return decls_.back();
  }
  AllocationDecl& tmem(std::string name, TmemColumns& handle, int columns) {
    handle.columns = static_cast<uint32_t>(columns);
    AllocationDecl d;
    d.name = std::move(name);
    d.space = MemSpace::Tmem;
    d.element_type = "column";
    d.element_bytes = 0;
    d.count = columns;
    d.alignment = 1;
    d.placement = &handle.column;
    decls_.push_back(d);
    return decls_.back();
  }
  std::vector<AllocationDecl> const& decls() const { return decls_; }
  std::vector<AllocationDecl>& decls() { return decls_; }

 private:
  std::vector<AllocationDecl> decls_;
};

}  // namespace ts
