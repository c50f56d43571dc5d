// boids-serve-bench: how many frames a second `boids serve` delivers to one page, as a page
// takes them (ask for the next once the last has arrived), and the link's rate; its points,
// or pictures of the whole flock (host/serve/flock_image.h) of W x H pixels centred on the
// world's point (X, Y, Z) at zoom 1.
//
//   boids-serve-bench PORT SECONDS MAX_BOIDS [W H X Y Z]
//
// Prints one CSV row: frames, seconds, frames_per_second, megabytes_per_second, boids_per_frame
// (the boids each frame shows, as points or in a picture),
// steps_per_second (the flock's steps between the first and the last frame, a second).
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

int main(int argc, char** argv) {
  if (argc != 4 && argc != 9) {
    std::fprintf(stderr, "usage: boids-serve-bench PORT SECONDS MAX_BOIDS [W H X Y Z]\n");
    return 2;
  }
  const auto port = static_cast<unsigned short>(std::stoi(argv[1]));
  const double seconds = std::stod(argv[2]);
  const std::string max_boids = argv[3];
  try {
    net::io_context io;
    websocket::stream<tcp::socket> ws(io);
    ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws.next_layer().set_option(tcp::no_delay(true));
    ws.read_message_max(1ull << 34);
    ws.handshake("127.0.0.1:" + std::to_string(port), "/ws");
    std::string ask = R"({"type":"next","max_boids":)" + max_boids;
    if (argc == 9) {
      ask += std::string(R"(,"picture":{"width":)") + argv[4] + R"(,"height":)" + argv[5] +
             R"(,"center":[)" + argv[6] + "," + argv[7] + "," + argv[8] +
             R"(],"zoom":1,"yaw":-0.6,"pitch":0.5,"distance":2.2})";
    }
    ask += "}";
    std::uint64_t frames = 0, bytes = 0, boids = 0, first_step = 0, last_step = 0;
    using Clock = std::chrono::steady_clock;
    Clock::time_point start;
    ws.text(true);
    ws.write(net::buffer(ask));
    for (;;) {
      beast::flat_buffer buffer;
      ws.read(buffer);
      if (ws.got_text()) continue;  // the flock's description, its metrics
      const std::string frame = beast::buffers_to_string(buffer.data());
      std::uint64_t step = 0;
      std::uint32_t count = 0;
      std::memcpy(&step, frame.data() + 8, sizeof step);
      std::uint16_t flags = 0;
      std::memcpy(&flags, frame.data() + 6, sizeof flags);
      // The boids shown: the frame's points, or the whole flock in a picture (flag bit 1).
      std::memcpy(&count, frame.data() + ((flags & 2) != 0 ? 20 : 16), sizeof count);
      if (frames <= 1) {       // the first frame may be old (made before this page came): the
        start = Clock::now();  // second starts the clock
        first_step = step;
      } else {
        bytes += frame.size();
        boids = count;
        last_step = step;
      }
      ++frames;
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      if (frames > 2 && elapsed >= seconds) {
        const double f = static_cast<double>(frames - 2);
        std::printf(
            "frames,seconds,frames_per_second,megabytes_per_second,boids_per_frame,"
            "steps_per_second\n%.0f,%.3f,%.2f,%.1f,%llu,%.2f\n",
            f, elapsed, f / elapsed, static_cast<double>(bytes) / elapsed / 1e6,
            static_cast<unsigned long long>(boids),
            static_cast<double>(last_step - first_step) / elapsed);
        ws.close(websocket::close_code::normal);
        return 0;
      }
      ws.text(true);
      ws.write(net::buffer(ask));
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "boids-serve-bench: error: %s\n", e.what());
    return 1;
  }
}
