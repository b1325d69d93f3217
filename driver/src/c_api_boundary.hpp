// The C API's boundary, shared by every file that implements part of llgo_wasm.h: strings
// handed out with malloc, and `guarded`, which turns the body's result or exception into a
// status, so no C++ exception ever crosses into C.
#pragma once

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include <nlohmann/json.hpp>

#include "json_text_checks.hpp"
#include "llgo_wasm.h"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/input_limits.hpp"

namespace llgo_wasm::detail {

using nlohmann::json;

// A required pointer argument was NULL: LLGO_WASM_NULL_ARGUMENT, as the header promises.
struct NullArgument : DriverError {
  using DriverError::DriverError;
};

inline char* copy_string(const std::string& text) {
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  if (out) std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

inline void set_output(char** slot, const std::string& text) {
  if (slot) *slot = copy_string(text);
}

// Runs `body`, which returns the result JSON, and maps every failure to a status.
template <typename Body>
inline llgo_wasm_status guarded(char** result, char** error, Body&& body) {
  if (result) *result = nullptr;
  if (error) *error = nullptr;
  if (!result) {
    set_output(error, "the result pointer is NULL");
    return LLGO_WASM_NULL_ARGUMENT;
  }
  try {
    *result = copy_string(body());
    if (!*result) throw std::bad_alloc();
    return LLGO_WASM_OK;
  } catch (const NullArgument& failure) {
    set_output(error, failure.what());
    return LLGO_WASM_NULL_ARGUMENT;
  } catch (const DriverError& failure) {
    set_output(error, failure.what());
    return LLGO_WASM_BAD_REQUEST;
  } catch (const json::exception& failure) {
    set_output(error, std::string("bad request JSON: ") + failure.what());
    return LLGO_WASM_BAD_REQUEST;
  } catch (const std::exception& failure) {
    set_output(error, failure.what());
    return LLGO_WASM_FAILED;
  } catch (...) {
    set_output(error, "unknown failure");
    return LLGO_WASM_FAILED;
  }
}

inline json parse_request(const char* text) {
  if (!text) throw NullArgument("the request JSON is NULL");
  check_json_text_limits(text, "request", {0, limits::kMaxJsonNestingDepth, "a request"});
  json request = json::parse(text);
  if (!request.is_object()) throw DriverError("the request must be a JSON object");
  return request;
}

inline std::string string_member(const json& request, const char* key) {
  auto found = request.find(key);
  if (found == request.end() || !found->is_string()) {
    throw DriverError(std::string("the request needs \"") + key + "\" (a string)");
  }
  return found->get<std::string>();
}

template <typename T>
inline T optional_member(const json& request, const char* key) {
  auto found = request.find(key);
  return found == request.end() ? T{} : found->get<T>();
}

}  // namespace llgo_wasm::detail
