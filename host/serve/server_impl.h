// The server's insides (host/serve/server.h), shared by its listening socket and HTTP side
// (server.cpp) and its pages' WebSockets (page_session.cpp). Everything here runs on the
// server's one I/O thread but where a comment says otherwise.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/serve/picture_painter.h"
#include "host/serve/server.h"

namespace boids::serve {

// The libraries' names, as both sides of the server write them.
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

// A page's WebSocket as the server sees it.
class Page {
 public:
  virtual ~Page() = default;
  // A new snapshot may be there for this page.
  virtual void offer_frame() = 0;
  // A text for the page (the flock's news, its role): dropped beyond what a page that reads
  // nothing may hold.
  virtual void send_text(const std::string& text) = 0;
  // Tells the page whether it steers.
  virtual void send_role() = 0;
};

// Runs a page on `socket`, whose `request` asked for its WebSocket (page_session.cpp).
void open_page(tcp::socket socket, Server::Impl& server, http::request<http::string_body> request);

class Server::Impl {
 public:
  // Listens at once (server.h says what it throws).
  Impl(const ServerOptions& options, FrameSource& source);
  ~Impl() { stop(); }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  void start();
  void stop();

  // From any thread.
  void snapshot_ready();
  void broadcast(const std::string& text);
  std::size_t pages() const {
    const std::lock_guard<std::mutex> lock(pages_mutex_);
    return pages_.size();
  }
  PicturePainter& painter() { return painter_; }
  const PicturePainter& painter() const { return painter_; }

  // On the I/O thread.
  void accept();
  void add(const std::shared_ptr<Page>& page);
  void remove(const Page* page);
  bool steers(const Page* page) const;
  FrameSource& source() { return source_; }
  const ServerOptions& options() const { return options_; }

  // Whether a request's Host names this server: its port, and its bound address (any of the
  // loopback names where it listens on loopback; any name where it listens on every address,
  // which needs a token). Another name is a page's trick (DNS rebinding): refused.
  bool serves_host(const std::string& host) const;

 private:
  ServerOptions options_;
  FrameSource& source_;
  net::io_context io_;
  tcp::acceptor acceptor_;
  net::steady_timer accept_pause_{io_};  // after a refused accept (out of file descriptors)
  std::thread thread_;
  mutable std::mutex pages_mutex_;
  std::vector<std::weak_ptr<Page>> pages_;  // in the order they came: the first steers
  // Gone before the I/O context, with the pages its pictures not yet drawn hold.
  PicturePainter painter_;
};

}  // namespace boids::serve
