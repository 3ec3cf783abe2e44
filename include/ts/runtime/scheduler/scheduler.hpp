// The tile schedulers (tile_scheduler.hpp: the interface): static, global counter
// (sm_90a), Cluster Launch Control (sm_100a, the CPU emulator), and the queue base that
// picks one (queue.hpp).
#pragma once
#include "ts/runtime/scheduler/clc_scheduler.hpp"
#include "ts/runtime/scheduler/global_counter_scheduler.hpp"
#include "ts/runtime/scheduler/queue.hpp"
#include "ts/runtime/scheduler/static_scheduler.hpp"
#include "ts/runtime/scheduler/tile_scheduler.hpp"
