// Minimal streaming JSON writer (no dependency): keys in insertion order, so the export
// is byte-stable for golden tests.
#pragma once
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace ts::print {

class JsonWriter {
 public:
  JsonWriter& begin_object() { sep(); os_ << "{"; first_.push_back(true); return *this; }
  JsonWriter& end_object() { first_.pop_back(); os_ << "}"; return *this; }
  JsonWriter& begin_array() { sep(); os_ << "["; first_.push_back(true); return *this; }
  JsonWriter& end_array() { first_.pop_back(); os_ << "]"; return *this; }
  JsonWriter& key(std::string const& k) {
    sep();
    quote(k);
    os_ << ":";
    pending_value_ = true;
    return *this;
  }
  JsonWriter& value(std::string const& s) { sep(); quote(s); return *this; }
  JsonWriter& value(char const* s) { return value(std::string(s)); }
  JsonWriter& value(long long v) { sep(); os_ << v; return *this; }
  JsonWriter& value(int v) { return value(static_cast<long long>(v)); }
  JsonWriter& value(bool b) { sep(); os_ << (b ? "true" : "false"); return *this; }
  // A number with up to `decimals` fractional digits (trailing zeros dropped).
  JsonWriter& number(double v, int decimals = 3) {
    sep();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s(buf);
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    os_ << s;
    return *this;
  }
  JsonWriter& null() { sep(); os_ << "null"; return *this; }
  template <class T>
  JsonWriter& field(std::string const& k, T const& v) { key(k); return value(v); }
  JsonWriter& ints(std::string const& k, std::vector<int> const& v) {
    key(k);
    begin_array();
    for (int x : v) value(x);
    return end_array();
  }
  JsonWriter& strings(std::string const& k, std::vector<std::string> const& v) {
    key(k);
    begin_array();
    for (auto const& x : v) value(x);
    return end_array();
  }
  std::string str() const { return os_.str(); }

 private:
  void sep() {
    if (pending_value_) {
      pending_value_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) os_ << ",";
      first_.back() = false;
    }
  }
  void quote(std::string const& s) {
    os_ << '"';
    for (char c : s) {
      switch (c) {
        case '"': os_ << "\\\""; break;
        case '\\': os_ << "\\\\"; break;
        case '\n': os_ << "\\n"; break;
        case '\t': os_ << "\\t"; break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            os_ << buf;
          } else {
            os_ << c;
          }
      }
    }
    os_ << '"';
  }
  std::ostringstream os_;
  std::vector<bool> first_;
  bool pending_value_ = false;
};

}  // namespace ts::print
