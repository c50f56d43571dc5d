// `boids serve` in a real browser: Debian's chromium, headless, with software WebGL (SwiftShader),
// driven through its DevTools protocol. The page draws the flock (a screenshot of many colours),
// a slider moved in the page changes the flock (seen through the server, by a second page), a
// replay plays its frames, and a box draws in 3D. Skipped, saying so, where chromium is not
// installed (scripts/install-deps test installs it).
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/beast/core/detail/base64.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <vector>

#include "tests/support/serve_fixture.h"

namespace {

namespace beast = boost::beast;
using boids::test_support::get;
using boids::test_support::Page;
using boids::test_support::read_file;
using boids::test_support::Result;
using json = nlohmann::json;

std::string chromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (access(path, X_OK) == 0) return path;
  }
  return "";
}

// The canvas's pixels, RGBA, as a page script reads them (a copy through a 2D canvas).
const std::string kPixels = R"((() => {
  const canvas = document.getElementById("flock");
  const copy = document.createElement("canvas");
  copy.width = canvas.width; copy.height = canvas.height;
  const g = copy.getContext("2d");
  g.drawImage(canvas, 0, 0);
  return g.getImageData(0, 0, copy.width, copy.height).data;
})())";

// The distinct colours of the flock's canvas, in buckets of 32 levels a channel, counting
// pixels brighter than the background alone.
const std::string kCountColours = "(() => { const d = " + kPixels + R"(;
  const seen = new Set();
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] + d[i + 1] + d[i + 2] > 240) seen.add((d[i] >> 5) << 6 | (d[i + 1] >> 5) << 3 | d[i + 2] >> 5);
  }
  return seen.size;
})())";

// How wide the canvas' lit pixels lie: from the leftmost to the rightmost, a share of its width.
const std::string kLitWidth = "(() => { const d = " + kPixels + R"(;
  const width = document.getElementById("flock").width;
  let least = width, most = -1;
  for (let i = 0; i < d.length; i += 4) {
    if (d[i] + d[i + 1] + d[i + 2] <= 240) continue;
    const x = (i / 4) % width;
    least = Math.min(least, x);
    most = Math.max(most, x);
  }
  return most < least ? 0 : (most - least) / width;
})())";

// The pixels of the canvas that are white: predators (a boid's hue keeps a channel at 0.2).
const std::string kCountWhite = "(() => { const d = " + kPixels + R"(;
  let white = 0;
  for (let i = 0; i < d.length; i += 4) white += d[i] > 250 && d[i + 1] > 250 && d[i + 2] > 250;
  return white;
})())";

class Browser : public boids::test_support::ServeFixture {
 protected:
  void SetUp() override {
    ServeFixture::SetUp();
    if (chromium().empty()) GTEST_SKIP() << "chromium is not installed (scripts/install-deps test)";
  }
  void TearDown() override {
    devtools_.reset();
    if (browser_ > 0) {
      kill(browser_, SIGKILL);
      waitpid(browser_, nullptr, 0);
    }
    std::filesystem::remove(stem() + ".browser.out");
    std::filesystem::remove(stem() + ".browser.err");
    ServeFixture::TearDown();
  }

  // Opens `address` in a headless chromium and connects to its page's DevTools.
  // Opens `address` in headless Chromium. Its software WebGL draws a few frames a second here,
  // slower under load: a page's drawing is judged (`?fps=`) only where a test asks for it.
  void open(std::string address) {
    if (address.find("fps=") == std::string::npos) {
      address += address.find('?') == std::string::npos ? "?fps=0" : "&fps=0";
    }
    const std::string profile = path("profile");
    browser_ = spawn(chromium(),
                     {"--headless=new", "--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader",
                      "--enable-unsafe-swiftshader", "--no-first-run", "--user-data-dir=" + profile,
                      "--window-size=900,700", "--remote-debugging-port=0", address},
                     stem() + ".browser.out", stem() + ".browser.err");
    std::uint16_t port = 0;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (port == 0 && std::chrono::steady_clock::now() < end) {
      const std::string err = read_file(stem() + ".browser.err");
      const std::string said = "DevTools listening on ws://127.0.0.1:";
      const std::size_t at = err.find(said);
      if (at != std::string::npos)
        port = static_cast<std::uint16_t>(std::stoi(err.substr(at + said.size())));
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_NE(port, 0) << read_file(stem() + ".browser.err");
    std::string target;
    while (target.empty() && std::chrono::steady_clock::now() < end) {
      for (const json& t : json::parse(get(port, "/json/list").body)) {
        if (t["type"] == "page" &&
            t["url"].get<std::string>().rfind(address.substr(0, 20), 0) == 0) {
          const std::string ws = t["webSocketDebuggerUrl"];
          target = ws.substr(ws.find("/devtools/"));
        }
      }
      if (target.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_FALSE(target.empty());
    devtools_ = std::make_unique<Page>(port, "", target);
  }

  // A DevTools command's result.
  json call(const std::string& method, const json& params = json::object()) {
    const int id = ++calls_;
    devtools_->send({{"id", id}, {"method", method}, {"params", params}});
    for (;;) {
      const json reply = devtools_->receive();
      if (reply.value("id", 0) == id) return reply.value("result", json::object());
    }
  }

  // The value of a JavaScript expression in the page.
  json evaluate(const std::string& expression) {
    const json r = call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}});
    return r["result"].value("value", json());
  }

  // Waits until `expression` is true in the page (up to 60 s).
  bool wait_for(const std::string& expression) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < end) {
      if (evaluate(expression) == true) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  // Whether the canvas comes to show at least `colours` colours (a frame being composited can
  // read as blank).
  bool drawn(int colours) {
    return wait_for("(" + kCountColours + ") >= " + std::to_string(colours));
  }

  // Saves a screenshot where the test runs (build/tests under CTest), for a person to look at.
  void screenshot(const std::string& name) {
    const std::string data = call("Page.captureScreenshot")["data"];
    std::string png(beast::detail::base64::decoded_size(data.size()), '\0');
    png.resize(beast::detail::base64::decode(png.data(), data.data(), data.size()).first);
    std::ofstream("browser-" + name + ".png", std::ios::binary) << png;
    EXPECT_EQ(png.substr(1, 3), "PNG");
  }

  pid_t browser_ = -1;
  std::unique_ptr<Page> devtools_;
  int calls_ = 0;
};

// The flocks drawn fly without alignment, so their headings, and so their colours, stay many
// however long a loaded machine takes to count them (an aligned flock comes to a few hues).
TEST_F(Browser, DrawsTheFlockInManyColours) {
  const std::string address =
      serve({"--port", "0", "--backend", "cpu", "--count", "3000", "--alignment", "0"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 20")) << evaluate("document.body.innerText");
  EXPECT_TRUE(drawn(16)) << evaluate(kCountColours);
  EXPECT_EQ(evaluate("document.getElementById('status').textContent.startsWith('step ')"), true)
      << evaluate("document.getElementById('status').textContent");
  // The help says what the mouse does to a flat flock: no orbit.
  const std::string help = evaluate("document.getElementById('help').textContent");
  EXPECT_EQ(help.rfind("Hold the left button to scare the flock.", 0), 0u) << help;
  EXPECT_EQ(help.find("orbit"), std::string::npos) << help;
  screenshot("flock");
}

TEST_F(Browser, ASliderMovedInThePageChangesTheFlock) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "1000"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 5"));
  Page watcher(port_);  // the browser steers; this page sees what the server flies
  watcher.until("role");
  evaluate(R"((() => {
    const slider = document.querySelector('input[data-control="alignment"]');
    slider.value = 1000;
    slider.dispatchEvent(new Event("input"));
  })())");
  double alignment = -1;
  const json changed = watcher.until("flock");
  for (const json& c : changed["controls"])
    if (c["name"] == "alignment") alignment = c["value"];
  EXPECT_EQ(alignment, 5) << changed.dump();
  evaluate("document.getElementById('pause').click()");
  EXPECT_EQ(watcher.until("flock")["paused"], true);
  EXPECT_TRUE(wait_for("document.getElementById('pause').textContent === 'Resume'"));
}

TEST_F(Browser, AReplayPlaysItsFrames) {
  const Result recorded = run({"run", "--backend", "cpu", "--count", "800", "--steps", "50",
                               "--trajectory", "t.h5", "--trajectory-every", "10"});
  ASSERT_EQ(recorded.code, 0) << recorded.err;
  const std::string address = serve({"--port", "0", "--replay", "t.h5"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 1"));
  std::set<std::uint64_t> steps;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (steps.size() < 6 && std::chrono::steady_clock::now() < end) {
    steps.insert(evaluate("window.boids.lastFrame.step").get<std::uint64_t>());
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(steps, (std::set<std::uint64_t>{0, 10, 20, 30, 40, 50}));  // every frame, played
  // The status, the scrubber and its label name the frame shown, whichever the player asked
  // for next.
  for (int k = 0; k < 20; ++k) {
    const json agree = evaluate(R"((() => {
      const n = window.boids.lastFrame.number;
      return document.getElementById("status").textContent.startsWith(`frame ${n} of 6,`) &&
             Number(document.getElementById("scrubber").value) === n - 1 &&
             document.getElementById("frame-label").textContent === `${n} / 6`;
    })())");
    EXPECT_EQ(agree, true) << evaluate("document.getElementById('status').textContent");
    std::this_thread::sleep_for(std::chrono::milliseconds(37));
  }
  EXPECT_TRUE(drawn(12)) << evaluate(kCountColours);
  // The chart holds the whole recording, its line at the frame shown, and the readouts read
  // the recording there.
  EXPECT_EQ(evaluate("window.boids.panel.chart.data[0]"), json({0, 10, 20, 30, 40, 50}));
  EXPECT_EQ(evaluate("window.boids.panel.chart.data[1].filter((v) => v >= 0 && v <= 1).length"), 6);
  for (int k = 0; k < 10; ++k) {
    const json agree = evaluate(R"((() => {
      const step = window.boids.lastFrame.step;
      return window.boids.panel.chart.mark === step &&
             document.getElementById("read-step").textContent === String(step);
    })())");
    EXPECT_EQ(agree, true) << evaluate("document.getElementById('read-step').textContent");
    std::this_thread::sleep_for(std::chrono::milliseconds(37));
  }
  screenshot("replay");
}

// The world is never under the panel: they lie side by side, and the panel folds away.
TEST_F(Browser, TheWorldLiesBesideThePanelWhichFolds) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "1000"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 3"));
  const std::string rects = R"((() => {
    const r = (id) => document.getElementById(id).getBoundingClientRect();
    return [r("flock").left, r("flock").right, r("panel").left, r("panel").right, innerWidth];
  })())";
  const json open_panel = evaluate(rects);
  EXPECT_LE(open_panel[1].get<double>(), open_panel[2].get<double>()) << open_panel.dump();
  EXPECT_GT(open_panel[1].get<double>(), 0.5 * open_panel[4].get<double>()) << open_panel.dump();
  evaluate("document.getElementById('fold').click()");
  ASSERT_TRUE(
      wait_for("document.getElementById('flock').getBoundingClientRect().width >= "
               "innerWidth - 40"));
  const json folded = evaluate(rects);
  EXPECT_LE(folded[1].get<double>(), folded[2].get<double>()) << folded.dump();
  EXPECT_TRUE(drawn(8));
  screenshot("folded");
  evaluate("document.getElementById('fold').click()");
  EXPECT_TRUE(wait_for("document.getElementById('panel').getBoundingClientRect().width > 300"));
}

// The chart has axes, and the readouts say the flock's values as numbers.
TEST_F(Browser, ChartsTheOrderWithAxesAndReadouts) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "1000"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.panel.chart.data[0].length >= 3"));
  EXPECT_GE(evaluate("document.querySelectorAll('#chart .u-axis').length"), 2);
  EXPECT_EQ(evaluate("document.getElementById('chart').innerText.includes('step')"), true);
  const json readouts = evaluate(R"((() => ["step", "polarization", "order", "flocks"].map(
      (k) => Number(document.getElementById("read-" + k).textContent)))())");
  ASSERT_EQ(readouts.size(), 4u);
  EXPECT_GT(readouts[0].get<double>(), 0) << readouts.dump();
  EXPECT_GE(readouts[1].get<double>(), 0) << readouts.dump();
  EXPECT_LE(readouts[1].get<double>(), 1) << readouts.dump();
  EXPECT_GE(readouts[3].get<double>(), 1) << readouts.dump();
  // The chart's last point is the flock's last measure.
  EXPECT_EQ(evaluate("window.boids.panel.chart.data[0].at(-1) <= window.boids.lastFrame.step"),
            true);
  screenshot("chart");
}

// The page picks what the boids are coloured by; the frames then carry it, and the scale says
// what the colours mean.
TEST_F(Browser, ColoursTheBoidsByWhatThePagePicks) {
  const std::string address =
      serve({"--port", "0", "--backend", "cpu", "--count", "3000", "--world", "800"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 3"));
  const auto pick = [&](const std::string& colouring) {
    evaluate("(() => { const s = document.getElementById('colour'); s.value = '" + colouring +
             "'; s.dispatchEvent(new Event('change')); })()");
    return wait_for("window.boids.lastFrame.colouring === '" + colouring + "'");
  };
  ASSERT_TRUE(pick("flock"));
  EXPECT_GT(evaluate("window.boids.lastFrame.colourTop").get<double>(), 1);  // many flocks
  EXPECT_TRUE(wait_for("document.getElementById('colour-scale').textContent.includes('flocks')"));
  EXPECT_TRUE(drawn(8)) << evaluate(kCountColours);
  screenshot("flocks");
  ASSERT_TRUE(pick("neighbors"));
  EXPECT_TRUE(
      wait_for("document.getElementById('colour-high').textContent.endsWith('neighbours')"));
  ASSERT_TRUE(pick("speed"));
  EXPECT_GT(evaluate("window.boids.lastFrame.colourTop").get<double>(), 0);
  ASSERT_TRUE(pick("heading"));
}

// On loopback the link carries a whole flock of 100,000 boids in 3D, however slowly the flock
// steps: the time the server waits for the flock's next step (half a second here) is not the
// link's. Measured without that wait, every frame came 1 in 4 to 1 in 9. A loaded machine (CI
// builds beside its tests) may still slow a frame or two, so the frames, each counted once by
// its step, must be whole more often than not, and the flock whole in the end.
TEST_F(Browser, ALoopbackCarriesAWholeLargeFlock) {
  const std::string address = serve(
      {"--port", "0", "--backend", "cpu", "--count", "100000", "--dimensions", "3", "--rate", "2"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 3"));
  std::map<std::uint64_t, std::uint32_t> strides;  // each frame's stride, by its step
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (strides.size() < 8 && std::chrono::steady_clock::now() < end) {
    const json frame = evaluate("window.boids.lastFrame");
    strides[frame["step"].get<std::uint64_t>()] = frame["stride"].get<std::uint32_t>();
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::string seen;
  for (const auto& [step, stride] : strides) seen += " 1 in " + std::to_string(stride);
  const auto whole = std::count_if(strides.begin(), strides.end(),
                                   [](const auto& frame) { return frame.second == 1u; });
  EXPECT_GT(2 * whole, static_cast<std::ptrdiff_t>(strides.size()))
      << whole << " of " << strides.size() << " frames whole:" << seen << "; "
      << evaluate("document.getElementById('showing').textContent");
  EXPECT_TRUE(
      wait_for("window.boids.lastFrame.stride === 1 && "
               "window.boids.lastFrame.count === 100000"))
      << evaluate("document.getElementById('showing').textContent");
  EXPECT_EQ(evaluate("window.boids.lastFrame.picture"), false)  // its points, not a picture
      << evaluate("window.boids.drawRate") << " boids a second drawn";
  EXPECT_GT(evaluate("window.boids.lastFrame.held").get<double>(), 0.01);  // the step's wait
}

// In open space the page fits the flock and follows it: a flock blown far beyond the start's
// region by the wind is drawn across the canvas (a world's bins would pile it on an edge, a
// view that stayed would lose it), and is still, once it has flown the view's width again.
TEST_F(Browser, InOpenSpaceTheViewFitsTheFlockAndFollowsIt) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "2000",
                                     "--boundary", "open", "--wind", "2,0", "--rate", "60"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 3"));
  EXPECT_EQ(evaluate("window.boids.lastFrame.open"), true);
  EXPECT_EQ(evaluate("document.getElementById('help').textContent.includes('fit the flock')"),
            true);
  ASSERT_TRUE(wait_for("window.boids.lastFrame.centre[0] > 300"))
      << evaluate("window.boids.lastFrame.centre");
  EXPECT_TRUE(wait_for("(" + kLitWidth + ") > 0.3")) << evaluate(kLitWidth);
  screenshot("open-space");
  const double then = evaluate("window.boids.lastFrame.centre[0]").get<double>();
  const double span = evaluate("window.boids.view.world[0]").get<double>();
  ASSERT_TRUE(wait_for("window.boids.lastFrame.centre[0] > " + std::to_string(then + 2 * span)));
  EXPECT_TRUE(wait_for("(" + kLitWidth + ") > 0.3")) << evaluate(kLitWidth);
  // H fits the flock again, about its bounds, after a pan that left it far out of view.
  evaluate("window.boids.view.center[0] += 10 * window.boids.view.world[0]");
  evaluate("window.dispatchEvent(new KeyboardEvent('keydown', { key: 'h' }))");
  const json fitted = evaluate(
      "[window.boids.view.center[0], window.boids.view.world[0], "
      "window.boids.lastFrame.centre[0]]");
  EXPECT_LT(std::abs(fitted[0].get<double>() - fitted[2].get<double>()),
            fitted[1].get<double>() / 2)
      << fitted.dump();
}

// Where the link cannot carry every boid, the page shows pictures of the whole flock that the
// server draws (host/serve/flock_image.h), with the predators drawn over them; asked for by
// the address, or on its own when its budget is below what the points need.
TEST_F(Browser, ShowsPicturesOfTheWholeFlockWhenAsked) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "20000",
                                     "--world", "400", "--predators", "3", "--alignment", "0"});
  ASSERT_NO_FATAL_FAILURE(open(address + "?show=picture"));
  ASSERT_TRUE(wait_for("window.boids.pictures >= 3")) << evaluate("document.body.innerText");
  EXPECT_EQ(evaluate("window.boids.lastFrame.picture"), true);
  EXPECT_EQ(evaluate("window.boids.lastFrame.count"), 0);  // no points
  EXPECT_EQ(evaluate("window.boids.lastFrame.total"), 20000);
  EXPECT_TRUE(
      wait_for("document.getElementById('showing').textContent.startsWith("
               "'showing the whole flock as a picture')"));
  EXPECT_TRUE(drawn(16)) << evaluate(kCountColours);
  EXPECT_TRUE(wait_for("(" + kCountWhite + ") >= 40")) << evaluate(kCountWhite);  // predators
  screenshot("picture");
}

TEST_F(Browser, SwitchesToPicturesWhenItsBudgetIsExceeded) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "100000",
                                     "--dimensions", "3", "--alignment", "0", "--rate", "5"});
  // 1 MB/s: a frame of points is 800 kB, so a thirtieth of a second holds 4,000 boids.
  ASSERT_NO_FATAL_FAILURE(open(address + "?budget=1000000"));
  ASSERT_TRUE(wait_for("window.boids.pictures >= 2")) << evaluate("document.body.innerText");
  EXPECT_EQ(evaluate("window.boids.lastFrame.picture"), true);
  EXPECT_TRUE(drawn(16)) << evaluate(kCountColours);
  screenshot("picture-box");
  // With the budget lifted, a probe finds the link carries the points: points again.
  evaluate("window.boids.budget = Infinity");
  EXPECT_TRUE(
      wait_for("window.boids.lastFrame.picture === false && "
               "window.boids.lastFrame.stride === 1"))
      << evaluate("document.getElementById('showing').textContent");
}

// Where the browser draws the points too slowly (software WebGL at a million boids: a frame a
// second), the page shows pictures as it does for a slow link, and says why; with a lower
// floor, a probe brings the points back. A page that accepts no fewer than 240 frames a second,
// above what a browser draws (its animation frames come at the display's rate), stands for it,
// whatever the flock's size: 20,000 boids, whose frames of points (100 kB) are large enough to
// measure the link by (64 kB; smaller ones leave the page showing 1 boid in n without a
// picture), and few enough for a server built with the sanitizers to send them briskly on a
// loaded machine. The lower floor is a frame in twenty seconds, as a loaded machine's software
// WebGL has drawn 30,000 points at 0.4 frames a second.
TEST_F(Browser, ABrowserThatCannotDrawEveryBoidIsShownPictures) {
  const std::string address = serve(
      {"--port", "0", "--backend", "cpu", "--count", "20000", "--density", "0.012", "--rate", "5"});
  ASSERT_NO_FATAL_FAILURE(open(address + "?fps=240"));
  ASSERT_TRUE(wait_for("window.boids.pictures >= 2"))
      << evaluate("window.boids.drawRate") << " boids a second drawn; "
      << evaluate("document.getElementById('showing').textContent");
  EXPECT_EQ(evaluate("window.boids.lastFrame.picture"), true);
  EXPECT_EQ(evaluate("document.getElementById('showing').textContent.includes("
                     "'the browser draws their points at')"),
            true)
      << evaluate("document.getElementById('showing').textContent");
  evaluate("window.boids.fps = 0.05");
  EXPECT_TRUE(
      wait_for("window.boids.lastFrame.picture === false && "
               "window.boids.lastFrame.stride === 1"))
      << evaluate("document.getElementById('showing').textContent");
}

// A frame of a few boids is too small to measure a link by: a flock of one boid, on a budget
// that holds none, is sent as its points, never as pictures.
TEST_F(Browser, AFewBoidsAreNeverSentAsPictures) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "1"});
  ASSERT_NO_FATAL_FAILURE(open(address + "?budget=100"));
  ASSERT_TRUE(wait_for("window.boids.frames >= 12")) << evaluate("document.body.innerText");
  EXPECT_EQ(evaluate("window.boids.pictures"), 0);
  EXPECT_EQ(evaluate("window.boids.lastFrame.picture"), false);
}

TEST_F(Browser, DrawsABoxInThreeDimensions) {
  const std::string address = serve({"--port", "0", "--backend", "cpu", "--count", "3000",
                                     "--dimensions", "3", "--alignment", "0"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 10"));
  EXPECT_EQ(evaluate("window.boids.flock.dimensions"), 3);
  EXPECT_EQ(evaluate("document.getElementById('help').textContent.startsWith('Drag to orbit.')"),
            true);
  EXPECT_TRUE(drawn(16)) << evaluate(kCountColours);
  screenshot("box");
}

TEST_F(Browser, DrawsThePredatorsWhite) {
  const std::string address =
      serve({"--port", "0", "--backend", "cpu", "--count", "2000", "--predators", "4"});
  ASSERT_NO_FATAL_FAILURE(open(address));
  ASSERT_TRUE(wait_for("window.boids.frames >= 10"));
  EXPECT_EQ(evaluate("window.boids.lastFrame.predators"), 4);
  EXPECT_TRUE(wait_for("(" + kCountWhite + ") >= 40")) << evaluate(kCountWhite);
  screenshot("predators");
}

// A page of another site cannot steer the flock: a page served from 127.0.0.2 (another origin,
// another boids serve) opens a WebSocket to the flock served on 127.0.0.1; Chromium sends its
// Origin, the server refuses the upgrade, and the flock flies on unpaused. Its own page, from
// its own origin, steers it.
TEST_F(Browser, AnotherSitesPageCannotSteerTheFlock) {
  ASSERT_NE(serve({"--port", "0", "--backend", "cpu", "--count", "500"}), "");
  const pid_t other =
      spawn(BOIDS_EXECUTABLE,
            {"serve", "--port", "0", "--bind", "127.0.0.2", "--backend", "cpu", "--count", "50"},
            stem() + ".other.out", stem() + ".other.err");
  std::string elsewhere;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (elsewhere.empty() && std::chrono::steady_clock::now() < end) {
    const std::string out = read_file(stem() + ".other.out");
    const std::size_t at = out.find("serving http://127.0.0.2:");
    if (at != std::string::npos && out.find('\n', at) != std::string::npos)
      elsewhere = out.substr(at + 8, out.find('\n', at) - at - 8);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_FALSE(elsewhere.empty()) << read_file(stem() + ".other.err");
  ASSERT_NO_FATAL_FAILURE(open(elsewhere));
  ASSERT_TRUE(wait_for("window.boids !== undefined && window.boids.frames >= 1"));
  Page watcher(port_);
  watcher.until("role");
  evaluate("(() => { window.attack = 'pending'; const ws = new WebSocket('ws://127.0.0.1:" +
           std::to_string(port_) + R"(/ws');
    ws.onopen = () => { ws.send(JSON.stringify({type: "pause", on: true})); window.attack = "open"; };
    ws.onerror = () => { window.attack = "refused"; };
  })())");
  ASSERT_TRUE(wait_for("window.attack !== 'pending'"));
  EXPECT_EQ(evaluate("window.attack"), "refused");
  // The flock was not paused: the watcher, which steers, changes its rate and is told the
  // flock flies on.
  watcher.send({{"type", "rate"}, {"steps_per_second", 30}});
  const json told = watcher.until("flock");
  EXPECT_EQ(told["paused"], false) << told.dump();
  EXPECT_EQ(told["steps_per_second"], 30);
  kill(other, SIGKILL);
  waitpid(other, nullptr, 0);
}

}  // namespace
