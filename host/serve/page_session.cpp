// A page's WebSocket (host/serve/server_impl.h): the frames it asks for, pulled one at a time,
// points or pictures (drawn by the server's painter); its messages, checked; and the texts the
// server sends it, bounded.
#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstring>
#include <deque>
#include <limits>
#include <optional>

#include "host/base/errors.h"
#include "host/serve/flock_image.h"
#include "host/serve/frame.h"
#include "host/serve/messages.h"
#include "host/serve/server_impl.h"

namespace boids::serve {
namespace {

// Texts waiting for a page that reads nothing: beyond them the oldest are dropped.
constexpr std::size_t kMaxQueuedTexts = 64;

// One page's WebSocket.
class PageSession final : public Page, public std::enable_shared_from_this<PageSession> {
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

  void offer_frame() override {
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
    // Pictures and measures are made on the painter's thread, sent from this one; the painter
    // holds the page's frame, not the page, which forgets its job as it leaves.
    if (picture_ || is_measured(colouring_)) {
      PicturePainter::Done done = [page = weak_from_this(), executor = ws_.get_executor()](
                                      std::string frame, std::string error) {
        net::post(executor, [page, frame = std::move(frame), error = std::move(error)]() mutable {
          if (const auto self = page.lock()) self->painted(std::move(frame), error);
        });
      };
      if (picture_) {
        server_.painter().paint(this, snapshot, *picture_, std::move(spare_frame_), done);
      } else {
        server_.painter().encode(this, snapshot, max_boids_, colouring_, std::move(spare_frame_),
                                 done);
      }
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

  // A frame the painter made, or why it could not: one that cannot ends this page, not the
  // server.
  void painted(std::string frame, const std::string& error) {
    if (closing_) return;
    if (!error.empty()) {
      refuse_and_close(error);
      return;
    }
    queue(std::move(frame), true);
  }

  void send_text(const std::string& text) override {
    if (closing_) return;
    std::size_t texts = 0;
    for (const Outgoing& o : outgoing_) texts += o.binary ? 0 : 1;
    if (texts >= kMaxQueuedTexts) return;  // a page that reads nothing misses news, not memory
    queue(text, false);
  }

  void send_role() override {
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

}  // namespace

void open_page(tcp::socket socket, Server::Impl& server, http::request<http::string_body> request) {
  std::make_shared<PageSession>(std::move(socket), server)->run(std::move(request));
}

}  // namespace boids::serve
