// The pattern examples (07-10), SPEC S11: ping-pong, split consumer, aliased staging,
// domain-lane interleaved consumer, warp-lane interleaved consumer (16). Each header declares its resources, schedules and a
// make_* builder returning the TaskManager; see docs/patterns.md.
#pragma once
#include "aliased_staging.hpp"
#include "domain_lane_consumer.hpp"
#include "pingpong_transform.hpp"
#include "split_consumer.hpp"
#include "warp_lane_consumer.hpp"
