// Checker counterexample -> emulator replay events, from memory or from the JSON export.
#include "ts/runtime/cpu/counterexample_replay.hpp"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <map>
#include <utility>

#include "ts/core/errors.hpp"
#include "ts/runtime/cpu/errors.hpp"

namespace ts::cpu {

std::vector<ReplayEvent> replay_events(check::Counterexample const& c, int cta) {
  std::vector<ReplayEvent> out;
  out.reserve(c.events.size());
  std::map<std::pair<int, int>, long long> seen;  // (task, step) -> occurrences so far
  for (auto const& e : c.events) out.push_back({cta, e.task, e.step, seen[{e.task, e.step}]++});
  return out;
}

namespace {

// A minimal JSON reader for the checker's export: objects, arrays, strings, numbers,
// true/false/null. Enough for check::to_json; not a general-purpose parser.
struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  long long n = 0;
  std::string s;
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> fields;
  Value const* get(std::string const& k) const {
    for (auto const& [name, v] : fields)
      if (name == k) return &v;
    return nullptr;
  }
};

class Reader {
 public:
  explicit Reader(std::string const& t) : t_(t) {}
  Value document() {
    Value v = value();
    ws();
    if (i_ != t_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(std::string const& what) const {
    throw EmulationError("ts::cpu: malformed counterexample JSON at offset " + std::to_string(i_) + ": " + what);
  }
  // A structurally valid document outside what the reader accepts, in diagnostic form.
  [[noreturn]] void refuse(std::string check, std::string what, std::string expected, std::string actual) const {
    Diagnostic d;
    d.check = std::move(check);
    d.message = "malformed counterexample JSON at offset " + std::to_string(i_) + ": " + what;
    d.expected = std::move(expected);
    d.actual = std::move(actual);
    d.hint = "use the checker's own export (tm.last_counterexample_json()) unedited";
    throw EmulationError("ts::cpu: " + d.format());
  }
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < t_.size() && t_[i_] == c) { ++i_; return true; }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool word(char const* w) {
    std::string s(w);
    if (t_.compare(i_, s.size(), s) != 0) return false;
    i_ += s.size();
    return true;
  }
  std::string str() {
    expect('"');
    std::string o;
    for (;;) {
      if (i_ >= t_.size()) fail("unterminated string");
      char c = t_[i_++];
      if (c == '"') return o;
      if (c != '\\') { o += c; continue; }
      if (i_ >= t_.size()) fail("unterminated escape");
      char e = t_[i_++];
      switch (e) {
        case 'n': o += '\n'; break;
        case 't': o += '\t'; break;
        case 'r': o += '\r'; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'u': {
          if (i_ + 4 > t_.size()) fail("short \\u escape");
          unsigned cp = unsigned(std::strtoul(t_.substr(i_, 4).c_str(), nullptr, 16));
          i_ += 4;
          if (cp < 0x80) o += char(cp);
          else if (cp < 0x800) { o += char(0xC0 | (cp >> 6)); o += char(0x80 | (cp & 0x3F)); }
          else { o += char(0xE0 | (cp >> 12)); o += char(0x80 | ((cp >> 6) & 0x3F)); o += char(0x80 | (cp & 0x3F)); }
          break;
        }
        default: o += e;  // \" \\ \/
      }
    }
  }
  // The export nests three levels deep ({events: [{...}]}); the bound only exists so a
  // hostile or corrupted file (100,000 '[') is an error instead of a stack overflow.
  static constexpr int kMaxDepth = 64;
  struct DepthGuard {
    Reader& r;
    explicit DepthGuard(Reader& rr) : r(rr) {
      if (++r.depth_ > kMaxDepth)
        r.refuse("replay.json-depth",
                 "arrays and objects nest deeper than " + std::to_string(kMaxDepth) +
                     " levels (the checker's export nests 3)",
                 "at most " + std::to_string(kMaxDepth) + " levels", "more than " + std::to_string(kMaxDepth));
    }
    ~DepthGuard() { --r.depth_; }
  };
  Value value() {
    ws();
    if (i_ >= t_.size()) fail("unexpected end");
    Value v;
    char c = t_[i_];
    DepthGuard guard(*this);
    if (c == '{') {
      v.kind = Value::Object;
      ++i_;
      if (eat('}')) return v;
      do {
        std::string k = str();
        expect(':');
        v.fields.emplace_back(std::move(k), value());
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      v.kind = Value::Array;
      ++i_;
      if (eat(']')) return v;
      do v.items.push_back(value());
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Value::String;
      v.s = str();
    } else if (word("true")) {
      v.kind = Value::Bool;
      v.b = true;
    } else if (word("false")) {
      v.kind = Value::Bool;
    } else if (word("null")) {
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t end = i_ + 1;
      while (end < t_.size() && t_[end] >= '0' && t_[end] <= '9') ++end;
      if (end < t_.size() && (t_[end] == '.' || t_[end] == 'e' || t_[end] == 'E')) fail("expected an integer");
      v.kind = Value::Number;
      errno = 0;
      v.n = std::strtoll(t_.substr(i_, end - i_).c_str(), nullptr, 10);
      // strtoll saturates at LLONG_MAX/MIN: a 20-digit index must not become a valid-looking one.
      if (errno == ERANGE)
        refuse("replay.json-integer-range", "the integer " + t_.substr(i_, end - i_) + " does not fit in 64 bits",
               "an integer in -9223372036854775808..9223372036854775807", t_.substr(i_, end - i_));
      i_ = end;
    } else {
      fail(std::string("unexpected '") + c + "'");
    }
    return v;
  }

  std::string const& t_;
  size_t i_ = 0;
  int depth_ = 0;
};

Value const& field(Value const& o, std::string const& k, Value::Kind kind) {
  Value const* v = o.get(k);
  if (!v || v->kind != kind) throw EmulationError("ts::cpu: counterexample JSON lacks field '" + k + "' of the right type");
  return *v;
}

ir::Section section_of(std::string const& s) {
  if (s == "head") return ir::Section::Head;
  if (s == "loop") return ir::Section::Loop;
  if (s == "tail") return ir::Section::Tail;
  throw EmulationError("ts::cpu: counterexample JSON has an unknown section '" + s + "'");
}

constexpr long long kMaxIndex = std::numeric_limits<int>::max();

// An integer field of event `index` that must lie in [lo, hi]; the message names the
// field, the event and the range, so a hand-edited export says what is wrong with it.
// (Whether a task or step index exists in the manager is checked when the events are
// replayed against it: validate_replay_events.)
long long bounded(Value const& ev, size_t index, std::string const& k, long long lo, std::string const& meaning) {
  long long n = field(ev, k, Value::Number).n;
  if (n >= lo && n <= kMaxIndex) return n;
  Diagnostic d;
  d.check = "replay.json-" + k + "-range";
  d.message = "counterexample JSON event " + std::to_string(index) + " has '" + k + "' = " + std::to_string(n) +
              ", which is not " + meaning;
  d.expected = std::to_string(lo) + " <= " + k + " <= " + std::to_string(kMaxIndex);
  d.actual = std::to_string(n);
  d.hint = "use the checker's own export (tm.last_counterexample_json()) unedited";
  throw EmulationError("ts::cpu: " + d.format());
}

}  // namespace

check::Counterexample counterexample_from_json(std::string const& json) {
  Value doc = Reader(json).document();
  if (doc.kind != Value::Object) throw EmulationError("ts::cpu: counterexample JSON is not an object");
  check::Counterexample c;
  c.kind = field(doc, "kind", Value::String).s;
  if (auto const* d = doc.get("detail"); d && d->kind == Value::String) c.detail = d->s;
  if (auto const* l = doc.get("domain_length"); l && l->kind == Value::Number) c.length = l->n;
  if (auto const* st = doc.get("skipped_tiles"); st && st->kind == Value::Bool) c.skipped_tiles = st->b;
  if (auto const* nt = doc.get("tiles"); nt && nt->kind == Value::Number) c.tiles = int(nt->n);
  if (auto const* bl = doc.get("blocked"); bl && bl->kind == Value::Array)
    for (auto const& b : bl->items)
      if (b.kind == Value::String) c.blocked.push_back(b.s);
  auto const& events = field(doc, "events", Value::Array).items;
  for (size_t i = 0; i < events.size(); ++i) {
    auto const& ev = events[i];
    if (ev.kind != Value::Object) throw EmulationError("ts::cpu: counterexample JSON event is not an object");
    check::Event e;
    e.task = int(bounded(ev, i, "task", 0, "a task index"));
    e.step = int(bounded(ev, i, "step", 0, "a schedule step index"));
    if (auto const* s = ev.get("section"); s && s->kind == Value::String) e.section = section_of(s->s);
    // -1 marks a step outside the domain loop / the tile loop.
    if (ev.get("iteration")) e.iteration = bounded(ev, i, "iteration", -1, "an iteration (-1: outside the loop)");
    if (ev.get("tile")) e.tile = int(bounded(ev, i, "tile", -1, "a tile (-1: outside the tile loop)"));
    c.events.push_back(e);
  }
  return c;
}

std::vector<ReplayEvent> replay_events_from_json(std::string const& json, int cta) {
  return replay_events(counterexample_from_json(json), cta);
}

}  // namespace ts::cpu
