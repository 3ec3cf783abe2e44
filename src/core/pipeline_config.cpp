#include "ts/core/pipeline_config.hpp"

#include "ts/core/errors.hpp"

namespace ts {

namespace detail {
void pipeline_config_rule_violated(PipelineType t, char const* rule, char const* expected, long long actual) {
  Diagnostic d;
  d.check = "config." + to_string(t);
  d.message = "PipelineConfig::" + to_string(t) + ": " + rule + ".";
  d.expected = expected;
  d.actual = std::to_string(actual);
  throw ConfigError(d);
}
}  // namespace detail

std::string to_string(PipelineType t) {
  switch (t) {
    case PipelineType::AsyncAsync: return "AsyncAsync";
    case PipelineType::TmaAsync: return "TmaAsync";
    case PipelineType::TmaUmma: return "TmaUmma";
    case PipelineType::UmmaAsync: return "UmmaAsync";
    case PipelineType::AsyncUmma: return "AsyncUmma";
    case PipelineType::UmmaUmma: return "UmmaUmma";
    case PipelineType::ClcFetchAsync: return "ClcFetchAsync";
  }
  return "?";
}

}  // namespace ts
