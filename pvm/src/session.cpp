// session.cpp: enrollment, messaging, spawn and notify over libpvm3.
#include "pvm/session.hpp"

#include <malloc.h>
#include <pvm3.h>
#include <sys/time.h>

#include <filesystem>

namespace pvm {
namespace {

int wildcard(const std::optional<tid>& t) { return t ? t->value : -1; }
int wildcard(const std::optional<tag>& t) { return t ? t->value : -1; }

message_info info_of(int bufid) {
  int bytes = 0, msgtag = 0, from = 0;
  check(pvm_bufinfo(bufid, &bytes, &msgtag, &from), "pvm_bufinfo");
  return {tid{from}, tag{msgtag}, bytes};
}

// libpvm frees the active receive buffer when the next message arrives; messages own their
// buffers, so detach it before every receive.
void detach_receive_buffer() { check(pvm_setrbuf(0), "pvm_setrbuf"); }

}  // namespace

void tune_malloc_for_messages() {
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

std::string spawn_result::summary() const {
  std::string s = std::to_string(started.size()) + " of " +
                  std::to_string(started.size() + failed.size()) + " started";
  for (const auto& f : failed) s += "; copy " + std::to_string(f.index) + ": " + f.reason;
  return s;
}

session::session(const session_options& opts) : opts_(opts) {
  // libpvm prints every error itself unless told not to; errors reach callers as exceptions.
  // pvm_setopt returns the option's previous value, or a negative code.
  check(pvm_setopt(PvmAutoErr, 0), "pvm_setopt(PvmAutoErr)");
  self_ = tid{check(pvm_mytid(), "pvm_mytid")};
  int p = pvm_parent();
  if (p > 0) {
    parent_ = tid{p};
  } else if (p != PvmNoParent && p != PvmParentNotSet) {
    pvm_exit();
    check(p, "pvm_parent");
  }
  try {
    set_route(opts.routing);
    if (opts.fragment_size > 0) set_fragment_size(opts.fragment_size);
  } catch (...) {
    pvm_exit();
    throw;
  }
}

// pvm_exit's code is not checked here: a destructor never throws, and the task leaves the
// virtual machine either way.
session::~session() { pvm_exit(); }

void session::set_route(route r) {
  check(pvm_setopt(PvmRoute, r == route::direct ? PvmRouteDirect : PvmDontRoute),
        "pvm_setopt(PvmRoute)");
  opts_.routing = r;
}

void session::set_fragment_size(int bytes) {
  check(pvm_setopt(PvmFragSize, bytes), "pvm_setopt(PvmFragSize)");
  opts_.fragment_size = bytes;
}

void session::verify(tid to, const char* routine) {
  if (!opts_.verify_recipients || to == self_ || alive_.contains(to)) return;
  int rc = pvm_pstat(to.value);
  if (rc == PvmNoTask) throw error(routine, PvmNoTask, "no task " + std::to_string(to.value));
  check(rc, "pvm_pstat");
  alive_.insert(to);
}

void session::send(tid to, tag t, const send_buffer& buf) {
  verify(to, "pvm_send");
  buf.activate();
  check(pvm_send(to.value, t.value), "pvm_send");
}

void session::multicast(std::span<const tid> to, tag t, const send_buffer& buf) {
  if (to.empty()) return;
  for (tid t1 : to) verify(t1, "pvm_mcast");
  buf.activate();
  std::vector<int> ids(to.size());
  for (std::size_t i = 0; i < to.size(); ++i) ids[i] = to[i].value;
  check(pvm_mcast(ids.data(), static_cast<int>(ids.size()), t.value), "pvm_mcast");
}

void session::forward(tid to, tag t, const message& m) {
  // PVM sends whatever buffer is active, received ones included.
  if (m.id() <= 0) throw error("pvm_setsbuf", PvmNoBuf, "message was moved from");
  verify(to, "pvm_send");
  int previous = check(pvm_setsbuf(m.id()), "pvm_setsbuf");
  const int rc = pvm_send(to.value, t.value);
  // Restore the caller's send buffer whatever the send did; the send's error comes first.
  const int restored = pvm_setsbuf(previous);
  check(rc, "pvm_send");
  check(restored, "pvm_setsbuf");
}

message session::receive_result(int bufid, const char* routine) {
  check(bufid, routine);
  message m(bufid, info_of(bufid));
  detach_receive_buffer();
  return m;
}

message session::recv(std::optional<tid> from, std::optional<tag> t) {
  detach_receive_buffer();
  return receive_result(pvm_recv(wildcard(from), wildcard(t)), "pvm_recv");
}

std::optional<message> session::recv_for(std::chrono::microseconds bound, std::optional<tid> from,
                                         std::optional<tag> t) {
  if (bound.count() < 0) bound = std::chrono::microseconds(0);
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(bound.count() / 1000000);
  tv.tv_usec = static_cast<suseconds_t>(bound.count() % 1000000);
  detach_receive_buffer();
  int bufid = pvm_trecv(wildcard(from), wildcard(t), &tv);
  if (bufid == 0) return std::nullopt;
  return receive_result(bufid, "pvm_trecv");
}

std::optional<message> session::try_recv(std::optional<tid> from, std::optional<tag> t) {
  detach_receive_buffer();
  int bufid = pvm_nrecv(wildcard(from), wildcard(t));
  if (bufid == 0) return std::nullopt;
  return receive_result(bufid, "pvm_nrecv");
}

std::optional<message_info> session::probe(std::optional<tid> from, std::optional<tag> t) {
  int bufid = check(pvm_probe(wildcard(from), wildcard(t)), "pvm_probe");
  if (bufid == 0) return std::nullopt;
  return info_of(bufid);
}

spawn_result session::spawn(const std::string& path, const std::vector<std::string>& args,
                            int count, const spawn_options& where) {
  if (count < 0) throw error("pvm_spawn", PvmBadParam, "negative task count");
  spawn_result result;
  if (count == 0) return result;
  // pvm_spawn silently starts nothing for a relative path: make it absolute here, unless a bare
  // name is to be found in the hosts' ep= paths.
  const bool bare = where.search_ep && path.find('/') == std::string::npos;
  std::string exe = bare ? path : std::filesystem::absolute(path).string();
  std::vector<std::string> argv_store = args;
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);
  int flag = PvmTaskDefault;
  std::string where_store = where.where;
  if (!where_store.empty()) flag = where.where_is_arch ? PvmTaskArch : PvmTaskHost;
  std::vector<int> tids(static_cast<std::size_t>(count), 0);
  int started = pvm_spawn(exe.data(), argv.data(), flag,
                          where_store.empty() ? nullptr : where_store.data(), count, tids.data());
  if (started < 0) {
    // The whole call failed: every copy failed for the same reason.
    for (int i = 0; i < count; ++i)
      result.failed.push_back({i, started, std::string(code_name(started))});
    return result;
  }
  for (int i = 0; i < count; ++i) {
    int v = tids[static_cast<std::size_t>(i)];
    if (v > 0 && i < started) {
      result.started.push_back(tid{v});
    } else {
      int code = v < 0 ? v : PvmNoFile;
      result.failed.push_back({i, code,
                               std::string(code_name(code)) + " (" +
                                   std::string(code_symbol(code)) + ", " + std::to_string(code) +
                                   ") for " + exe});
    }
  }
  return result;
}

void session::notify_exit(std::span<const tid> tasks, tag t) {
  if (tasks.empty()) return;
  std::vector<int> ids(tasks.size());
  for (std::size_t i = 0; i < tasks.size(); ++i) ids[i] = tasks[i].value;
  check(pvm_notify(PvmTaskExit, t.value, static_cast<int>(ids.size()), ids.data()), "pvm_notify");
}

tid session::exited_task(message& m) {
  tid gone{m.get<int>()};
  alive_.erase(gone);
  return gone;
}

void session::kill(tid t) { check(pvm_kill(t.value), "pvm_kill"); }

std::vector<host_info> session::hosts() const {
  int nhost = 0, narch = 0;
  pvmhostinfo* hi = nullptr;
  check(pvm_config(&nhost, &narch, &hi), "pvm_config");
  std::vector<host_info> v;
  for (int i = 0; i < nhost; ++i)
    v.push_back({hi[i].hi_name ? hi[i].hi_name : "", hi[i].hi_tid,
                 hi[i].hi_arch ? hi[i].hi_arch : "", hi[i].hi_speed});
  return v;
}

std::string session::host_of(tid t) const {
  const int dtid = check(pvm_tidtohost(t.value), "pvm_tidtohost");
  for (const auto& h : hosts()) {
    if (h.dtid == dtid) return h.name;
  }
  return "pvmd " + std::to_string(dtid);
}

void session::signal(tid t, int signum) { check(pvm_sendsig(t.value, signum), "pvm_sendsig"); }

}  // namespace pvm
