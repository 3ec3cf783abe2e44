// Minimal JSON reader (no dependency): parses a whole document into a tree of values,
// e.g. to read back trace_chrome_json or the model export (ts::print::JsonReader::parse).
// Enough for reading back the library's own exports (trace-event JSON); numbers are
// doubles, objects keep their keys in order. Errors throw JsonParseError with the offset.
#pragma once
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ts::print {

struct JsonParseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<JsonValue> items;                          // Array
  std::vector<std::pair<std::string, JsonValue>> fields;  // Object, in order

  bool is_object() const { return type == Type::Object; }
  bool is_array() const { return type == Type::Array; }
  bool is_number() const { return type == Type::Number; }
  bool is_string() const { return type == Type::String; }
  // The field `k` of an object, or nullptr (also for non-objects).
  JsonValue const* get(std::string const& k) const {
    if (type != Type::Object) return nullptr;
    for (auto const& [key, v] : fields)
      if (key == k) return &v;
    return nullptr;
  }
  std::string string_or(std::string const& k, std::string const& dflt) const {
    auto const* v = get(k);
    return v && v->is_string() ? v->str : dflt;
  }
  bool has_number(std::string const& k) const {
    auto const* v = get(k);
    return v && v->is_number();
  }
  double number_or(std::string const& k, double dflt) const {
    auto const* v = get(k);
    return v && v->is_number() ? v->num : dflt;
  }
};

class JsonReader {
 public:
  static JsonValue parse(std::string const& text) {
    JsonReader r(text);
    r.ws();
    JsonValue v = r.value(0);
    r.ws();
    if (r.i_ != r.s_.size()) r.fail("trailing characters after the document");
    return v;
  }

 private:
  explicit JsonReader(std::string const& s) : s_(s) {}
  [[noreturn]] void fail(std::string const& what) const {
    throw JsonParseError("JSON parse error at offset " + std::to_string(i_) + ": " + what);
  }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void expect(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++i_;
  }
  bool literal(char const* w) {
    size_t n = std::char_traits<char>::length(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  JsonValue value(int depth) {
    if (depth > 200) fail("nesting too deep");
    JsonValue v;
    char c = peek();
    if (c == '{') {
      v.type = JsonValue::Type::Object;
      ++i_;
      ws();
      if (peek() == '}') { ++i_; return v; }
      for (;;) {
        ws();
        if (peek() != '"') fail("expected a key string");
        std::string k = string();
        ws();
        expect(':');
        ws();
        v.fields.emplace_back(std::move(k), value(depth + 1));
        ws();
        if (peek() == ',') { ++i_; continue; }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      v.type = JsonValue::Type::Array;
      ++i_;
      ws();
      if (peek() == ']') { ++i_; return v; }
      for (;;) {
        ws();
        v.items.push_back(value(depth + 1));
        ws();
        if (peek() == ',') { ++i_; continue; }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.type = JsonValue::Type::String;
      v.str = string();
      return v;
    }
    if (literal("true")) { v.type = JsonValue::Type::Bool; v.b = true; return v; }
    if (literal("false")) { v.type = JsonValue::Type::Bool; return v; }
    if (literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      char const* begin = s_.c_str() + i_;
      char* end = nullptr;
      v.type = JsonValue::Type::Number;
      v.num = std::strtod(begin, &end);
      if (end == begin) fail("bad number");
      i_ += size_t(end - begin);
      return v;
    }
    fail(c ? std::string("unexpected '") + c + "'" : "unexpected end of input");
  }
  std::string string() {
    expect('"');
    std::string o;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return o;
      if (c != '\\') { o += c; continue; }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case '"': o += '"'; break;
        case '\\': o += '\\'; break;
        case '/': o += '/'; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'n': o += '\n'; break;
        case 'r': o += '\r'; break;
        case 't': o += '\t'; break;
        case 'u': {
          if (i_ + 4 > s_.size()) fail("short \\u escape");
          unsigned cp = unsigned(std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16));
          i_ += 4;
          // UTF-8 (surrogate pairs are kept as two code points: names here are ASCII).
          if (cp < 0x80) o += char(cp);
          else if (cp < 0x800) { o += char(0xc0 | (cp >> 6)); o += char(0x80 | (cp & 0x3f)); }
          else { o += char(0xe0 | (cp >> 12)); o += char(0x80 | ((cp >> 6) & 0x3f)); o += char(0x80 | (cp & 0x3f)); }
          break;
        }
        default: fail(std::string("bad escape \\") + e);
      }
    }
  }
  std::string const& s_;
  size_t i_ = 0;
};

}  // namespace ts::print
