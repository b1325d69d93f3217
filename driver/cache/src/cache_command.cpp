// See cache_command.hpp. The options and environment variables map onto PackageCacheConfig
// (package_cache.hpp); options override the environment.
#include "llgo_wasm/cache_command.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "llgo_wasm/error.hpp"
#include "llgo_wasm/package_cache.hpp"

namespace llgo_wasm {
namespace {

using nlohmann::json;

constexpr const char* kUsage =
    "usage: llgo-wasm cache get KEY --dest DIR [--expect NAME]... [--json]\n"
    "                               copy the outputs of KEY under DIR (exit 1: miss; with --expect, an\n"
    "                               entry whose outputs are not exactly the NAMEs is a miss)\n"
    "       llgo-wasm cache put KEY --output [NAME=]PATH... [--tool NAME=VERSION]... [--meta NAME=VALUE]...\n"
    "                               [--build-seconds S] [--json]\n"
    "       llgo-wasm cache has KEY [--json]                  exit 0 when KEY is cached (locally or remotely)\n"
    "       llgo-wasm cache stats [--json]\n"
    "       llgo-wasm cache trim [--max-size SIZE] [--json]   drop least recently used entries until SIZE fits\n"
    "\n"
    "KEY is a cache key (`llgo-wasm cache-key`). An output's NAME defaults to the file's name.\n"
    "Cache options (environment variable in parentheses):\n"
    "  --cache-dir DIR        local cache (LLGO_WASM_CACHE_DIR; default $XDG_CACHE_HOME/llgo-wasm/build-cache)\n"
    "  --max-size SIZE        bound for the local cache, e.g. 2G (LLGO_WASM_CACHE_MAX_SIZE; default unbounded)\n"
    "  --shared-cache-dir     use the cache directory even if another user owns it (LLGO_WASM_CACHE_SHARED=1)\n"
    "  --remote-cache URL     Bazel HTTP remote cache, e.g. http://host:8080/llgo (LLGO_WASM_REMOTE_CACHE)\n"
    "  --remote-read-only     fetch from the remote, never upload (LLGO_WASM_REMOTE_CACHE_READ_ONLY=1)\n"
    "  --remote-timeout S     connect and stall timeout in seconds; an operation gets 2 x S plus its bytes\n"
    "                         at 1 MiB/s, retries included (LLGO_WASM_REMOTE_CACHE_TIMEOUT; default 5)\n"
    "  --remote-netrc FILE    the remote's credentials (LLGO_WASM_REMOTE_CACHE_NETRC; default ~/.netrc)\n"
    "  --remote-header-file FILE  header lines for every request, e.g. Authorization: Bearer ...\n"
    "                         (LLGO_WASM_REMOTE_CACHE_HEADER_FILE)\n"
    "  --no-remote            ignore LLGO_WASM_REMOTE_CACHE\n"
    "Credentials in the URL work but are never printed; a netrc or header file keeps them out of\n"
    "command lines and the environment.\n";

struct Options {
  std::vector<std::string> positional;
  std::map<std::string, std::vector<std::string>> values;
  std::map<std::string, bool> flags;
};

Options parse(const std::string& command, const std::vector<std::string>& args) {
  static const std::vector<std::string> kValues = {
      "--dest",         "--output",         "--tool",         "--meta",         "--cache-dir",          "--max-size",
      "--remote-cache", "--remote-timeout", "--remote-netrc", "--remote-header-file", "--build-seconds", "--expect"};
  static const std::vector<std::string> kFlags = {"--json", "--remote-read-only", "--no-remote", "--shared-cache-dir"};
  Options options;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string option = args[i];
    std::optional<std::string> inline_value;
    if (auto equals = option.find('='); option.rfind("--", 0) == 0 && equals != std::string::npos) {
      inline_value = option.substr(equals + 1);
      option = option.substr(0, equals);
    }
    if (std::find(kValues.begin(), kValues.end(), option) != kValues.end()) {
      if (!inline_value && i + 1 >= args.size()) throw DriverError("cache " + command + ": " + option + " needs a value");
      options.values[option].push_back(inline_value ? *inline_value : args[++i]);
    } else if (std::find(kFlags.begin(), kFlags.end(), option) != kFlags.end() && !inline_value) {
      options.flags[option] = true;
    } else if (option.rfind("-", 0) == 0) {
      throw DriverError("cache " + command + ": unknown option \"" + args[i] + "\" (see `llgo-wasm cache --help`)");
    } else {
      options.positional.push_back(option);
    }
  }
  return options;
}

std::optional<std::string> single(const Options& options, const std::string& option) {
  auto found = options.values.find(option);
  if (found == options.values.end()) return std::nullopt;
  if (found->second.size() > 1) throw DriverError(option + " given more than once");
  return found->second.front();
}

std::vector<std::string> all(const Options& options, const std::string& option) {
  auto found = options.values.find(option);
  return found == options.values.end() ? std::vector<std::string>{} : found->second;
}

std::pair<std::string, std::string> name_value(const std::string& option, const std::string& text) {
  auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) throw DriverError(option + " takes NAME=VALUE, not \"" + text + "\"");
  return {text.substr(0, equals), text.substr(equals + 1)};
}

PackageCacheConfig config_from(const Options& options) {
  PackageCacheConfig config = package_cache_config_from_environment(single(options, "--cache-dir"));
  if (auto size = single(options, "--max-size")) config.max_bytes = parse_size(*size);
  if (auto url = single(options, "--remote-cache")) {
    check_remote_cache_url(*url);
    config.remote_url = *url;
  }
  if (options.flags.count("--no-remote")) config.remote_url.clear();
  if (options.flags.count("--remote-read-only")) config.remote_writes = false;
  if (auto timeout = single(options, "--remote-timeout")) config.remote_timeout = parse_seconds(*timeout);
  if (auto netrc = single(options, "--remote-netrc")) config.remote_netrc = *netrc;
  if (auto headers = single(options, "--remote-header-file")) config.remote_headers = read_header_file(*headers);
  if (options.flags.count("--shared-cache-dir")) config.shared_dir = true;
  return config;
}

std::string key_argument(const std::string& command, const Options& options) {
  if (options.positional.size() != 1) throw DriverError("cache " + command + ": give exactly one KEY");
  check_cache_key(options.positional.front());
  return options.positional.front();
}

void print_entry(const CacheEntry& entry, std::ostream& out) {
  for (const auto& output : entry.outputs) out << output.name << " " << output.sha256 << " " << output.size << "\n";
}

int run_get(const Options& options, PackageCache& cache) {
  std::string key = key_argument("get", options);
  auto dest = single(options, "--dest");
  if (!dest) throw DriverError("cache get: --dest DIR is required (where the outputs go)");
  std::vector<std::string> expected = all(options, "--expect");
  for (const auto& name : expected) check_output_name(name);
  std::string why;
  std::optional<CacheHit> hit = cache.get(key, *dest, &why, expected.empty() ? nullptr : &expected);
  if (options.flags.count("--json")) {
    json document = {{"hit", hit.has_value()}};
    if (hit) document.update({{"source", to_string(hit->source)}, {"entry", cache_entry_to_json(hit->entry)}});
    else document["reason"] = why;
    std::cout << document.dump(2) << "\n";
  } else if (hit) {
    print_entry(hit->entry, std::cout);
  } else {
    std::cerr << "llgo-wasm: cache miss for " << key << ": " << why << "\n";
  }
  return hit ? 0 : 1;
}

int run_put(const Options& options, PackageCache& cache) {
  std::string key = key_argument("put", options);
  std::vector<std::pair<std::string, std::filesystem::path>> outputs;
  for (const auto& text : all(options, "--output")) {
    auto equals = text.find('=');
    std::filesystem::path path = equals == std::string::npos ? text : text.substr(equals + 1);
    outputs.emplace_back(equals == std::string::npos ? path.filename().string() : text.substr(0, equals), path);
  }
  if (outputs.empty()) throw DriverError("cache put: give at least one --output [NAME=]PATH");
  json metadata = json::object();
  for (const auto& text : all(options, "--meta")) {
    auto [name, value] = name_value("--meta", text);
    metadata[name] = value;
  }
  for (const auto& text : all(options, "--tool")) {
    auto [name, value] = name_value("--tool", text);
    metadata["tools"][name] = value;
  }
  if (auto seconds = single(options, "--build-seconds")) {
    char* end = nullptr;
    double value = std::strtod(seconds->c_str(), &end);
    if (seconds->empty() || *end != '\0' || !(value >= 0)) {
      throw DriverError("--build-seconds: \"" + *seconds + "\" is not a number of seconds");
    }
    metadata["build-seconds"] = value;
  }
  CacheEntry entry = cache.put(key, outputs, metadata);
  if (options.flags.count("--json")) std::cout << cache_entry_to_json(entry).dump(2) << "\n";
  else print_entry(entry, std::cout);
  return 0;
}

int run_has(const Options& options, PackageCache& cache) {
  std::string key = key_argument("has", options);
  std::optional<CacheSource> source = cache.has(key);
  if (options.flags.count("--json")) {
    json document = {{"hit", source.has_value()}};
    if (source) document["source"] = to_string(*source);
    std::cout << document.dump(2) << "\n";
  } else if (source) {
    std::cout << to_string(*source) << "\n";
  }
  return source ? 0 : 1;
}

int run_stats(const Options& options, PackageCache& cache) {
  json document = cache_stats_to_json(cache);
  if (options.flags.count("--json")) {
    std::cout << document.dump(2) << "\n";
  } else {
    for (const auto& [name, value] : document.items()) {
      std::cout << name << std::string(name.size() < 12 ? 12 - name.size() : 1, ' ')
                << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
    }
  }
  return 0;
}

int run_trim(const Options& options, PackageCache& cache) {
  std::uint64_t max_bytes = cache.config().max_bytes;
  if (max_bytes == 0) throw DriverError("cache trim: give --max-size SIZE (or set LLGO_WASM_CACHE_MAX_SIZE)");
  cache.check_local_owner();
  TrimResult result = cache.local().trim(max_bytes);
  json document = {{"removed-entries", result.removed_entries},
                   {"removed-blobs", result.removed_blobs},
                   {"bytes", result.bytes_after}};
  if (options.flags.count("--json")) std::cout << document.dump(2) << "\n";
  else std::cout << "removed " << result.removed_entries << " entries, " << result.removed_blobs << " blobs; "
                 << result.bytes_after << " bytes left\n";
  return 0;
}

// LLGO_WASM_CACHE_TRACE=FILE appends one JSON line per command (what a build's cache did, for
// benchmarks and CI logs): {"command", "key", "status", "seconds", "local-hits", "remote-hits",
// "misses", "bytes-downloaded", "bytes-uploaded", "remote-disabled", "local-disabled"}. One
// write(2) per line, so parallel commands do not interleave within a line.
void append_trace(const char* file, const std::string& command, const Options& options, PackageCache& cache,
                  int status, std::chrono::steady_clock::duration elapsed) {
  PackageCacheCounts counts = cache.counts();
  json line = {{"command", command},
               {"key", options.positional.empty() ? "" : options.positional.front()},
               {"status", status},
               {"seconds", std::chrono::duration<double>(elapsed).count()},
               {"local-hits", counts.local_hits},
               {"remote-hits", counts.remote_hits},
               {"misses", counts.misses},
               {"bytes-downloaded", counts.remote.bytes_downloaded},
               {"bytes-uploaded", counts.remote.bytes_uploaded},
               {"remote-disabled", counts.remote_disabled},
               {"local-disabled", counts.local_disabled}};
  std::string text = line.dump() + "\n";
  std::FILE* out = std::fopen(file, "a");
  if (!out) return;
  std::fwrite(text.data(), 1, text.size(), out);
  std::fclose(out);
}

}  // namespace

int run_cache_command(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" ||
      std::find(args.begin(), args.end(), "--help") != args.end()) {
    (args.empty() ? std::cerr : std::cout) << kUsage;
    return args.empty() ? 2 : 0;
  }
  const std::string& command = args[0];
  using Runner = int (*)(const Options&, PackageCache&);
  static const std::map<std::string, Runner> kCommands = {
      {"get", run_get}, {"put", run_put}, {"has", run_has}, {"stats", run_stats}, {"trim", run_trim}};
  auto found = kCommands.find(command);
  if (found == kCommands.end()) {
    throw DriverError("cache: unknown command \"" + command + "\"; commands: get, put, has, stats, trim");
  }
  Options options = parse(command, args);
  auto started = std::chrono::steady_clock::now();
  PackageCache cache(config_from(options), [](const std::string& warning) {
    std::cerr << "llgo-wasm: warning: " << warning << "\n";
  });
  int status = found->second(options, cache);
  if (const char* trace = std::getenv("LLGO_WASM_CACHE_TRACE"); trace && *trace) {
    append_trace(trace, command, options, cache, status, std::chrono::steady_clock::now() - started);
  }
  return status;
}

}  // namespace llgo_wasm
