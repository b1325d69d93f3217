// Helpers shared by the driver tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

#include "llgo_wasm/descriptors.hpp"
#include "llgo_wasm/error.hpp"
#include "llgo_wasm/target.hpp"

namespace llgo_wasm::testing {

// Succeeds when `body` throws a DriverError whose message contains every fragment.
template <typename Body>
::testing::AssertionResult fails_with(Body&& body, std::initializer_list<std::string> fragments) {
  try {
    body();
  } catch (const DriverError& error) {
    std::string message = error.what();
    for (const auto& fragment : fragments) {
      if (message.find(fragment) == std::string::npos) {
        return ::testing::AssertionFailure() << "the message\n  " << message << "\nlacks\n  " << fragment;
      }
    }
    return ::testing::AssertionSuccess() << message;
  }
  return ::testing::AssertionFailure() << "no DriverError was thrown";
}

// A query naming `target` (a built-in name or a descriptor file), with a descriptor search path.
inline Query named_query(const std::string& target, std::vector<std::string> search_path = {}) {
  Query query;
  query.target = target;
  query.descriptor_search_path = std::move(search_path);
  return query;
}

// Loads one custom descriptor, named custom/x.json, on top of the built-ins, as `--target x.json` does.
inline TargetDescriptor load_custom(const std::string& text) {
  return builtin_descriptors().load_source({"custom/x.json", text});
}

// A fresh directory under the system temp dir, removed when the object dies.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() /
            ("llgo-wasm-" + tag + "-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    std::filesystem::path file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace llgo_wasm::testing
