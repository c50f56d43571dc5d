#include "host/serve/server.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstring>
#include <deque>
#include <fstream>
#include <iostream>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/serve/flock_image.h"
#include "host/serve/page_files.h"
#include "host/serve/picture_painter.h"

namespace boids::serve {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr std::size_t kMaxRequestBytes = 8192;
// Texts waiting for a page that reads nothing: beyond them the oldest are dropped.
constexpr std::size_t kMaxQueuedTexts = 64;
// The token's cookie, named by the port: a browser's cookies ignore ports, and two servers
// on one address must not overwrite each other's.
std::string token_cookie(std::uint16_t port) {
  return "boids_token_" + std::to_string(port);
}

// Whether `address` is one of this machine's loopback addresses or names.
bool loopback(const std::string& address) {
  return address == "localhost" || address == "::1" || address == "[::1]" ||
         address.rfind("127.", 0) == 0;
}

// The value of `name` in a query string or a Cookie header ("a=1&b=2", "a=1; b=2").
std::string field_value(std::string_view text, std::string_view name, char separator) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(separator, start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item.size() > name.size() && item.substr(0, name.size()) == name &&
        item[name.size()] == '=') {
      return std::string(item.substr(name.size() + 1));
    }
    start = end + 1;
  }
  return "";
}

// Compares without an early exit, so that the time taken says nothing of the token.
bool same_token(const std::string& given, const std::string& token) {
  if (given.size() != token.size()) return false;
  unsigned char differ = 0;
  for (std::size_t i = 0; i < token.size(); ++i)
    differ |= static_cast<unsigned char>(given[i] ^ token[i]);
  return differ == 0;
}

}  // namespace

class PageSession;

class Server::Impl {
 public:
  Impl(const ServerOptions& options, FrameSource& source)
      : options_(options), source_(source), acceptor_(io_), painter_(options.pictures) {
    boost::system::error_code ec;
    const net::ip::address address =
        net::ip::make_address(options.bind == "localhost" ? "127.0.0.1" : options.bind, ec);
    if (ec) throw InputError("--bind: " + quoted(options.bind) + " is not an IP address");
    const tcp::endpoint endpoint(address, options.port);
    const std::string where = options.bind + ":" + std::to_string(options.port);
    acceptor_.open(endpoint.protocol(), ec);
    if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor_.bind(endpoint, ec);
    if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
      throw RuntimeError("cannot listen on " + where + " (--bind, --port): " + ec.message());
    }
  }

  ~Impl() { stop(); }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  void start() {
    accept();
    thread_ = std::thread([this] {
      // A handler's failure ends its page's request (PageSession catches what a frame or a
      // description throws); one that still escapes is said, and the server goes on serving.
      for (;;) {
        try {
          io_.run();
          return;
        } catch (const std::exception& e) {
          std::cerr << "boids serve: a page's request failed: " << e.what() << std::endl;
        }
      }
    });
  }

  void stop() {
    if (!thread_.joinable()) return;
    io_.stop();
    thread_.join();
  }

  void snapshot_ready();
  void broadcast(const std::string& text);
  std::size_t pages() const {
    const std::lock_guard<std::mutex> lock(pages_mutex_);
    return pages_.size();
  }

  // On the I/O thread.
  void accept();
  void add(const std::shared_ptr<PageSession>& page);
  void remove(const PageSession* page);
  bool steers(const PageSession* page) const;
  FrameSource& source() { return source_; }
  PicturePainter& painter() { return painter_; }
  const PicturePainter& painter() const { return painter_; }
  const ServerOptions& options() const { return options_; }

  // Whether a request's Host names this server: its port, and its bound address (any of the
  // loopback names where it listens on loopback; any name where it listens on every address,
  // which needs a token). Another name is a page's trick (DNS rebinding): refused.
  bool serves_host(const std::string& host) const {
    const std::size_t colon = host.rfind(':');
    if (colon == std::string::npos || host.substr(colon + 1) != std::to_string(port())) {
      return false;
    }
    const std::string name = host.substr(0, colon);
    const std::string& bind = options_.bind;
    if (bind == "0.0.0.0" || bind == "::") return true;
    if (loopback(bind)) return loopback(name);
    return name == bind || name == "[" + bind + "]";
  }

 private:
  ServerOptions options_;
  FrameSource& source_;
  net::io_context io_;
  tcp::acceptor acceptor_;
  net::steady_timer accept_pause_{io_};  // after a refused accept (out of file descriptors)
  std::thread thread_;
  mutable std::mutex pages_mutex_;
  std::vector<std::weak_ptr<PageSession>> pages_;  // in the order they came: the first steers
  // Gone before the I/O context, with the pages its pictures not yet drawn hold.
  PicturePainter painter_;
};

// One page's WebSocket.
class PageSession : public std::enable_shared_from_this<PageSession> {
 public:
  PageSession(tcp::socket socket, Server::Impl& server) : ws_(std::move(socket)), server_(server) {}

  void run(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxMessageBytes);
    // A frame goes as one WebSocket frame: Beast would cut it into pieces of 4 KiB, each its
    // own write, which made a large frame many times as slow as one write.
    ws_.auto_fragment(false);
    ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->server_.add(self);
      try {
        self->send_text(self->server_.source().description());
      } catch (const std::exception& e) {
        self->refuse_and_close(std::string("the flock cannot be described: ") + e.what());
        return;
      }
      self->send_role();
      self->read();
    });
  }

  // A new snapshot may be there for this page.
  void offer_frame() {
    if (!wants_frame_ || frame_queued_ || closing_) return;
    std::shared_ptr<const Snapshot> snapshot;
    try {  // a frame that cannot be read (damaged, too large) ends this page, not the server
      snapshot = server_.source().next(seen_, cursor_);
    } catch (const std::exception& e) {
      refuse_and_close(e.what());
      return;
    }
    if (!snapshot) return;
    wants_frame_ = false;
    seen_ = snapshot->number;
    frame_queued_ = true;
    if (picture_) {  // drawn on the painter's thread; sent from this one
      server_.painter().paint(snapshot, *picture_, std::move(spare_frame_),
                              [self = shared_from_this(), executor = ws_.get_executor()](
                                  std::string frame, std::string error) {
                                net::post(executor, [self, frame = std::move(frame),
                                                     error = std::move(error)]() mutable {
                                  self->painted(std::move(frame), error);
                                });
                              });
      return;
    }
    try {
      encode_frame_into(spare_frame_, *snapshot, max_boids_, colouring_);
    } catch (const std::exception& e) {
      refuse_and_close(e.what());
      return;
    }
    queue(std::move(spare_frame_), true);
  }

  // A picture drawn, or why it could not be: one that cannot ends this page, not the server.
  void painted(std::string frame, const std::string& error) {
    if (closing_) return;
    if (!error.empty()) {
      refuse_and_close(error);
      return;
    }
    queue(std::move(frame), true);
  }

  void send_text(const std::string& text) {
    if (closing_) return;
    std::size_t texts = 0;
    for (const Outgoing& o : outgoing_) texts += o.binary ? 0 : 1;
    if (texts >= kMaxQueuedTexts) return;  // a page that reads nothing misses news, not memory
    queue(text, false);
  }

  void send_role() {
    send_text(std::string(R"({"type":"role","steer":)") +
              (server_.steers(this) ? "true" : "false") + "}");
  }

 private:
  struct Outgoing {
    std::string bytes;
    bool binary;
  };

  void read() {
    ws_.async_read(incoming_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) {
        self->closing_ = true;
        self->server_.remove(self.get());
        return;
      }
      self->take(beast::buffers_to_string(self->incoming_.data()), self->ws_.got_text());
      self->incoming_.consume(self->incoming_.size());
      if (!self->closing_) self->read();
    });
  }

  void take(const std::string& text, bool is_text) {
    ClientMessage message;
    try {
      if (!is_text) throw InputError("a binary message");
      message = parse_client_message(text);
    } catch (const InputError& e) {
      refuse_and_close(e.what());
      return;
    }
    using Type = ClientMessage::Type;
    if (message.type == Type::kNext) {
      wants_frame_ = true;
      asked_at_ = std::chrono::steady_clock::now();
      max_boids_ = message.count;
      // Another colouring or view is the frame shown made again (a paused flock or replay
      // makes no newer one): any snapshot is newer than none.
      if (message.colouring != colouring_ || message.picture != picture_) seen_ = 0;
      colouring_ = message.colouring;
      picture_ = message.picture;
      offer_frame();
      return;
    }
    if (message.type == Type::kSeek) {
      cursor_ = message.count;
      offer_frame();
      return;
    }
    if (!server_.steers(this)) {
      send_text(
          R"({"type":"refused","message":"another page steers this flock; this one watches"})");
      return;
    }
    try {
      server_.source().apply(message);
    } catch (const InputError& e) {
      say_refused(e.what());
    }
  }

  // A refusal of a change the protocol allows: the page shows it, and the connection stays.
  void say_refused(const std::string& why) {
    std::string escaped;
    for (const char c : why) {
      if (c == '"' || c == '\\') escaped += '\\';
      if (static_cast<unsigned char>(c) >= 0x20) escaped += c;
    }
    send_text(R"({"type":"refused","message":")" + escaped + "\"}");
  }

  // Outside the protocol: the connection closes, saying why.
  void refuse_and_close(const std::string& why) {
    if (closing_) return;
    closing_ = true;
    outgoing_.clear();
    server_.remove(this);
    close_reason_ = websocket::close_reason(websocket::close_code::policy_error);
    close_reason_.reason = why.substr(0, 120);  // a close frame's reason: at most 123 bytes
    if (!writing_) close();                     // else once the write in flight is done
  }

  void close() {
    ws_.async_close(close_reason_, [self = shared_from_this()](beast::error_code) {});
  }

  void queue(std::string bytes, bool binary) {
    outgoing_.push_back({std::move(bytes), binary});
    if (!writing_) write();
  }

  void write() {
    writing_ = true;
    ws_.binary(outgoing_.front().binary);
    if (outgoing_.front().binary) stamp_hold(outgoing_.front().bytes);
    ws_.async_write(net::buffer(outgoing_.front().bytes),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      self->writing_ = false;
                      if (self->outgoing_.empty()) {  // cleared by a refusal
                        if (self->closing_ && !ec) self->close();
                        return;
                      }
                      if (self->outgoing_.front().binary) {  // its memory serves the next
                        self->frame_queued_ = false;
                        self->spare_frame_ = std::move(self->outgoing_.front().bytes);
                      }
                      self->outgoing_.pop_front();
                      if (ec) {
                        self->closing_ = true;
                        self->server_.remove(self.get());
                        return;
                      }
                      if (!self->outgoing_.empty()) self->write();
                      self->offer_frame();
                    });
  }

  // The microseconds since the page asked for this frame, in its header: the page takes the
  // server's time from what it measures of its link.
  void stamp_hold(std::string& frame) const {
    const auto held = std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - asked_at_);
    const auto micros = static_cast<std::uint32_t>(
        std::clamp<std::int64_t>(held.count(), 0, std::numeric_limits<std::uint32_t>::max()));
    std::memcpy(&frame[kFrameHeldAt], &micros, sizeof micros);
  }

  websocket::stream<beast::tcp_stream> ws_;
  Server::Impl& server_;
  beast::flat_buffer incoming_;
  std::deque<Outgoing> outgoing_;
  websocket::close_reason close_reason_;
  std::string spare_frame_;  // the last frame's memory, for the next
  bool writing_ = false, closing_ = false;
  bool wants_frame_ = false, frame_queued_ = false;
  std::uint64_t max_boids_ = 1, seen_ = 0, cursor_ = 0;
  Colouring colouring_ = Colouring::kHeading;
  std::optional<ImageView> picture_;  // the page's view, when it asks for pictures
  std::chrono::steady_clock::time_point asked_at_ = std::chrono::steady_clock::now();
};

// One HTTP connection: the page's files, or the upgrade to a page's WebSocket.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket socket, Server::Impl& server)
      : stream_(std::move(socket)), server_(server) {}

  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxRequestBytes);
    parser_->body_limit(kMaxRequestBytes);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) {
                         beast::error_code ignored;
                         self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                         return;
                       }
                       self->answer(self->parser_->release());
                     });
  }

 private:
  void answer(http::request<http::string_body> request) {
    const std::string target(request.target());
    const std::size_t question = target.find('?');
    const std::string path = target.substr(0, question);
    const std::string query = question == std::string::npos ? "" : target.substr(question + 1);
    const std::string& token = server_.options().token;
    const std::string from_query = field_value(query, "token", '&');
    const std::string from_cookie =
        field_value(std::string(request[http::field::cookie]), token_cookie(server_.port()), ';');
    // Only this server's own pages: a request names this server as its Host, and a page's
    // WebSocket comes from this server's own origin (a browser always says a page's origin;
    // a program that says none is no other site's page).
    const std::string host(request[http::field::host]);
    if (!server_.serves_host(host)) {
      return respond(request, http::status::forbidden, "text/plain",
                     "403: this server answers requests for its own address alone\n");
    }
    const std::string origin(request[http::field::origin]);
    if (websocket::is_upgrade(request) && !origin.empty() && origin != "http://" + host) {
      return respond(request, http::status::forbidden, "text/plain",
                     "403: a page of another origin may not steer or watch this flock\n");
    }
    if (!token.empty() && !same_token(from_query, token) && !same_token(from_cookie, token)) {
      return respond(request, http::status::forbidden, "text/plain",
                     "403: this server asks for its token (the address it printed)\n");
    }
    if (websocket::is_upgrade(request)) {
      if (path != "/ws") return respond(request, http::status::not_found, "text/plain", "404\n");
      std::make_shared<PageSession>(stream_.release_socket(), server_)->run(std::move(request));
      return;
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      return respond(request, http::status::method_not_allowed, "text/plain", "405\n");
    }
    const PageFile* file = find_page_file(path);
    if (!file) return respond(request, http::status::not_found, "text/plain", "404: not found\n");
    respond(request, http::status::ok, file->type, file->bytes,
            !token.empty() && same_token(from_query, token));
  }

  void respond(const http::request<http::string_body>& request, http::status status,
               std::string_view type, std::string_view body, bool set_cookie = false) {
    auto response = std::make_shared<http::response<http::string_body>>(status, request.version());
    response->set(http::field::server, "boids");
    response->set(http::field::content_type, std::string(type));
    response->set(http::field::cache_control, "no-store");
    response->set("X-Content-Type-Options", "nosniff");
    if (set_cookie) {
      response->set(http::field::set_cookie, token_cookie(server_.port()) + "=" +
                                                 server_.options().token +
                                                 "; HttpOnly; SameSite=Strict; Path=/");
    }
    response->keep_alive(request.keep_alive());
    if (request.method() != http::verb::head) response->body() = std::string(body);
    response->prepare_payload();
    if (request.method() == http::verb::head) response->content_length(body.size());
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
                        if (ec || !response->keep_alive()) {
                          beast::error_code ignored;
                          self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                          return;
                        }
                        self->read();
                      });
  }

  beast::tcp_stream stream_;
  Server::Impl& server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

void Server::Impl::accept() {
  acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (!ec) {
      // A page asks for each frame once it has the last: a request must not wait for Nagle's
      // algorithm to gather more.
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<HttpSession>(std::move(socket), *this)->read();
    }
    if (!acceptor_.is_open()) return;
    if (!ec || ec == net::error::operation_aborted || ec == net::error::connection_aborted) {
      accept();
      return;
    }
    // Out of file descriptors (EMFILE, ENFILE) or memory: the connection waits in the listen
    // queue, and accepting again at once would spin the network thread on the same error.
    // The pages already served go on; the next accept is tried in a tenth of a second.
    accept_pause_.expires_after(std::chrono::milliseconds(100));
    accept_pause_.async_wait([this](beast::error_code) {
      if (acceptor_.is_open()) accept();
    });
  });
}

void Server::Impl::add(const std::shared_ptr<PageSession>& page) {
  const std::lock_guard<std::mutex> lock(pages_mutex_);
  pages_.push_back(page);
}

void Server::Impl::remove(const PageSession* page) {
  std::shared_ptr<PageSession> next_steerer;
  {
    const std::lock_guard<std::mutex> lock(pages_mutex_);
    const bool was_first = !pages_.empty() && pages_.front().lock().get() == page;
    pages_.erase(std::remove_if(pages_.begin(), pages_.end(),
                                [page](const std::weak_ptr<PageSession>& p) {
                                  const auto alive = p.lock();
                                  return !alive || alive.get() == page;
                                }),
                 pages_.end());
    if (was_first && !pages_.empty()) next_steerer = pages_.front().lock();
  }
  if (next_steerer) next_steerer->send_role();
}

bool Server::Impl::steers(const PageSession* page) const {
  const std::lock_guard<std::mutex> lock(pages_mutex_);
  for (const auto& p : pages_) {
    if (const auto alive = p.lock()) return alive.get() == page;
  }
  return false;
}

void Server::Impl::snapshot_ready() {
  net::post(io_, [this] {
    std::vector<std::shared_ptr<PageSession>> pages;
    {
      const std::lock_guard<std::mutex> lock(pages_mutex_);
      for (const auto& p : pages_)
        if (auto alive = p.lock()) pages.push_back(std::move(alive));
    }
    for (const auto& page : pages) page->offer_frame();
  });
}

void Server::Impl::broadcast(const std::string& text) {
  net::post(io_, [this, text] {
    std::vector<std::shared_ptr<PageSession>> pages;
    {
      const std::lock_guard<std::mutex> lock(pages_mutex_);
      for (const auto& p : pages_)
        if (auto alive = p.lock()) pages.push_back(std::move(alive));
    }
    for (const auto& page : pages) page->send_text(text);
  });
}

Server::Server(const ServerOptions& options, FrameSource& source)
    : impl_(std::make_unique<Impl>(options, source)) {}
Server::~Server() = default;
std::uint16_t Server::port() const {
  return impl_->port();
}
void Server::start() {
  impl_->start();
}
void Server::stop() {
  impl_->stop();
}
void Server::snapshot_ready() {
  impl_->snapshot_ready();
}
void Server::broadcast(const std::string& text) {
  impl_->broadcast(text);
}
std::size_t Server::pages() const {
  return impl_->pages();
}

std::string Server::pictures_drawn_by() const {
  return impl_->painter().describe();
}

std::string random_token() {
  std::ifstream random("/dev/urandom", std::ios::binary);
  unsigned char bytes[16] = {};
  if (!random.read(reinterpret_cast<char*>(bytes), sizeof bytes)) {
    throw RuntimeError("cannot read /dev/urandom for a token: give --token");
  }
  static const char* digits = "0123456789abcdef";
  std::string token;
  for (const unsigned char b : bytes) {
    token += digits[b >> 4];
    token += digits[b & 15];
  }
  return token;
}

void check_token(const std::string& option, const std::string& token) {
  if (token.size() < 16 || token.size() > 128 ||
      token.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") !=
          std::string::npos) {
    throw InputError(option + ": expected 16 to 128 letters and digits");
  }
}

ServerOptions with_token_if_remote(ServerOptions options) {
  if (!is_loopback(options.bind) && options.token.empty()) options.token = random_token();
  return options;
}

std::string page_address(const ServerOptions& options, std::uint16_t port) {
  const std::string host =
      options.bind.find(':') != std::string::npos ? "[" + options.bind + "]" : options.bind;
  return "http://" + host + ":" + std::to_string(port) + "/" +
         (options.token.empty() ? "" : "?token=" + options.token);
}

bool is_loopback(const std::string& address) {
  if (address == "localhost") return true;
  boost::system::error_code ec;
  const net::ip::address a = net::ip::make_address(address, ec);
  return !ec && a.is_loopback();
}

}  // namespace boids::serve
