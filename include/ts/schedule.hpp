// What a schedule or resource header needs, on host and device alike.
#pragma once
#include "ts/core/allocation.hpp"
#include "ts/core/allocation_decl.hpp"
#include "ts/core/macros.hpp"
#include "ts/core/resource_types.hpp"
#include "ts/core/results.hpp"
#include "ts/core/stage_info.hpp"
#include "ts/schedule/queue_schedules.hpp"
#include "ts/schedule/runtime_value.hpp"
#include "ts/schedule/skip_if.hpp"
#include "ts/schedule/slots.hpp"
#include "ts/schedule/unroll.hpp"
#include "ts/schedule/work.hpp"
