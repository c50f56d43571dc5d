#include "host/serve/server.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <optional>
#include <vector>

#include "host/base/errors.h"
#include "host/base/message_text.h"
#include "host/serve/page_files.h"
#include "host/serve/server_impl.h"

namespace boids::serve {
namespace {

constexpr std::size_t kMaxRequestBytes = 8192;
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
      open_page(stream_.release_socket(), server_, std::move(request));
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

}  // namespace

Server::Impl::Impl(const ServerOptions& options, FrameSource& source)
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

void Server::Impl::start() {
  accept();
  thread_ = std::thread([this] {
    // A handler's failure ends its page's request (a page catches what a frame or a
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

void Server::Impl::stop() {
  if (!thread_.joinable()) return;
  io_.stop();
  thread_.join();
}

bool Server::Impl::serves_host(const std::string& host) const {
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

void Server::Impl::add(const std::shared_ptr<Page>& page) {
  const std::lock_guard<std::mutex> lock(pages_mutex_);
  pages_.push_back(page);
}

void Server::Impl::remove(const Page* page) {
  painter_.forget(page);  // its frame is for no one now
  std::shared_ptr<Page> next_steerer;
  {
    const std::lock_guard<std::mutex> lock(pages_mutex_);
    const bool was_first = !pages_.empty() && pages_.front().lock().get() == page;
    pages_.erase(std::remove_if(pages_.begin(), pages_.end(),
                                [page](const std::weak_ptr<Page>& p) {
                                  const auto alive = p.lock();
                                  return !alive || alive.get() == page;
                                }),
                 pages_.end());
    if (was_first && !pages_.empty()) next_steerer = pages_.front().lock();
  }
  if (next_steerer) next_steerer->send_role();
}

bool Server::Impl::steers(const Page* page) const {
  const std::lock_guard<std::mutex> lock(pages_mutex_);
  for (const auto& p : pages_) {
    if (const auto alive = p.lock()) return alive.get() == page;
  }
  return false;
}

void Server::Impl::snapshot_ready() {
  net::post(io_, [this] {
    std::vector<std::shared_ptr<Page>> pages;
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
    std::vector<std::shared_ptr<Page>> pages;
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
