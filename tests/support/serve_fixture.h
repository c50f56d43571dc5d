// A `boids serve` process for a test, and the clients a browser would be: HTTP requests and a
// page's WebSocket (Boost.Beast's client), with timeouts so that a fault fails a test rather
// than hanging the suite.
#pragma once

#include <sys/socket.h>
#include <sys/wait.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <csignal>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/cli_fixture.h"

namespace boids::test_support {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using json = nlohmann::json;

// Sockets that give up after a while instead of hanging the suite.
inline void time_out(tcp::socket& socket) {
  const timeval wait{20, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &wait, sizeof wait);
}

// A page's WebSocket to a server (or any WebSocket at `path`: a browser's DevTools).
// `origin`, when given, is the page's origin as a browser says it ("http://127.0.0.1:8000").
struct Page {
  Page(std::uint16_t port, const std::string& cookie = "", const std::string& path = "/ws",
       const std::string& origin = "")
      : ws(io) {
    ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    ws.next_layer().set_option(tcp::no_delay(true));
    time_out(ws.next_layer());
    ws.set_option(websocket::stream_base::decorator([cookie, origin](websocket::request_type& r) {
      if (!cookie.empty()) r.set(http::field::cookie, cookie);
      if (!origin.empty()) r.set(http::field::origin, origin);
    }));
    ws.handshake("127.0.0.1:" + std::to_string(port), path);
  }
  void send(const json& message) {
    ws.text(true);
    ws.write(net::buffer(message.dump()));
  }
  // The next message: text as JSON (binary: {"binary": size}), the frame's bytes kept.
  json receive() {
    beast::flat_buffer buffer;
    ws.read(buffer);
    last = beast::buffers_to_string(buffer.data());
    return ws.got_text() ? json::parse(last) : json{{"binary", last.size()}};
  }
  // Messages until one of `type` (at most 40 others: 20 s of metrics).
  json until(const std::string& type) {
    for (int i = 0; i < 40; ++i) {
      const json m = receive();
      if (m.value("type", "") == type) return m;
    }
    ADD_FAILURE() << "no " << type << " message";
    return {};
  }
  json frame(std::uint64_t max_boids, const std::string& colour = "heading") {
    send({{"type", "next"}, {"max_boids", max_boids}, {"colour", colour}});
    for (int i = 0; i < 200; ++i) {
      const json m = receive();
      if (m.contains("binary")) return m;
    }
    ADD_FAILURE() << "no frame";
    return {};
  }
  template <typename T>
  T at(std::size_t offset) const {
    T v;
    std::memcpy(&v, last.data() + offset, sizeof v);
    return v;
  }
  net::io_context io;
  websocket::stream<tcp::socket> ws;
  std::string last;
};

struct Response {
  unsigned status = 0;
  std::string type, body, cookie;
};

// A GET as a browser sends it, naming the server as its Host (127.0.0.1:PORT unless `host`).
inline Response get(std::uint16_t port, const std::string& target, const std::string& cookie = "",
                    const std::string& host = "") {
  net::io_context io;
  tcp::socket socket(io);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  time_out(socket);
  http::request<http::empty_body> request(http::verb::get, target, 11);
  request.set(http::field::host, host.empty() ? "127.0.0.1:" + std::to_string(port) : host);
  if (!cookie.empty()) request.set(http::field::cookie, cookie);
  http::write(socket, request);
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(socket, buffer, response);
  return {response.result_int(), std::string(response[http::field::content_type]), response.body(),
          std::string(response[http::field::set_cookie])};
}

class ServeFixture : public CliFixture {
 protected:
  void TearDown() override {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    CliFixture::TearDown();
  }

  // Starts `boids serve args...` and returns the address it prints, once it does.
  std::string serve(std::vector<std::string> args) {
    args.insert(args.begin(), "serve");
    pid_ = start(args);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < end) {
      const std::string out = read_file(stem() + ".out");
      const std::size_t at = out.find("serving http://");
      if (at != std::string::npos && out.find('\n', at) != std::string::npos) {
        const std::string line = out.substr(at, out.find('\n', at) - at);
        port_ = static_cast<std::uint16_t>(std::stoi(line.substr(line.rfind(':') + 1)));
        return line.substr(std::strlen("serving "));
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        ADD_FAILURE() << "boids serve ended: " << read_file(stem() + ".err");
        return "";
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "boids serve printed no address";
    return "";
  }

  // Sends `signal` and returns the exit status (-1 when it did not end within 30 s).
  int stop(int signal = SIGTERM) {
    kill(pid_, signal);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    int status = 0;
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > end) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
};

}  // namespace boids::test_support
