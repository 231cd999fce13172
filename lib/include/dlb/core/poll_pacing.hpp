// poll_pacing.hpp: how often the runtime looks for messages, as values in and values out (the
// runtime reads the clock and passes what it read).
//
//  - Between iterations (a slave under the native clock): polling the transport costs a
//    microsecond or more, so a slave polls once per `count` iterations, the count chosen so that
//    polls come about every `target_ns`: an iteration then costs a counter and a check
//    (next_poll_count).
//  - While waiting for a message that is due soon (a worker's next chunk, the master's next
//    request; the MPI transport's bounded receive): poll without pause at first, then yield the
//    processor between polls (an oversubscribed host runs the others meanwhile), and only after
//    that sleep between polls, so that a wait that ends within the spin never pays a sleep
//    (next_wait_step).
#pragma once

#include <chrono>
#include <cstdint>

namespace dlb::core {

struct poll_pacing {
  std::int64_t target_ns = 200'000;    // about one poll per this much time
  std::int64_t max_count = 1'000'000;  // at most this many iterations between polls
};

// The number of iterations until the next poll, given that the last `count` iterations (since
// the previous poll) took `elapsed_ns`: count * target / elapsed, at least 1, and at most twice
// `count` (a count grows by doubling, so one long iteration after many short ones is not
// overshot by much; it shrinks at once) and max_count. A non-positive elapsed (a clock too
// coarse to see the iterations) doubles the count.
std::int64_t next_poll_count(std::int64_t count, std::int64_t elapsed_ns, const poll_pacing& p);

struct wait_pacing {
  std::chrono::microseconds spin{200};        // poll without pause this long
  std::chrono::microseconds yield{2'000};     // then poll and yield the processor until this
  std::chrono::microseconds first_sleep{10};  // then sleep between polls, from this
  std::chrono::microseconds max_sleep{200};   // doubling to at most this
};

// What a waiting receive does after a poll that found nothing, `waited` into its wait, having
// slept `last_sleep` at its previous step (0: none yet): poll again at once (spin), yield the
// processor then poll (yield), or sleep `sleep` then poll.
struct wait_step {
  enum class kind { spin, yield, sleep };
  kind what = kind::spin;
  std::chrono::microseconds sleep{0};
  friend bool operator==(const wait_step&, const wait_step&) = default;
};
wait_step next_wait_step(std::chrono::microseconds waited, std::chrono::microseconds last_sleep,
                         const wait_pacing& p);

}  // namespace dlb::core
