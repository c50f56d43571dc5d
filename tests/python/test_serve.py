"""Flock.serve: the flock a script steps, watched from a browser's page. The page's side is
spoken here at the protocol's level (host/serve/messages.h, host/serve/frame.h) by a small
WebSocket client; the page itself is tested in a real browser by tests/serve/test_browser.cpp."""

import base64
import json
import os
import socket
import struct
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import boids
import pytest


class Page:
    """A page's connection to /ws (RFC 6455, client side): text messages as dicts, frames as
    their decoded header and positions."""

    def __init__(self, address):
        url = urllib.parse.urlsplit(address)
        self.sock = socket.create_connection((url.hostname, url.port), timeout=20)
        self.buffer = b""
        key = base64.b64encode(os.urandom(16)).decode()
        path = "/ws" + ("?" + url.query if url.query else "")
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        head = self._until(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        self.texts = []

    def _until(self, end):
        while end not in self.buffer:
            self._more()
        head, self.buffer = self.buffer.split(end, 1)
        return head

    def _more(self):
        data = self.sock.recv(1 << 20)
        if not data:
            raise ConnectionError("the server closed the connection")
        self.buffer += data

    def _take(self, n):
        while len(self.buffer) < n:
            self._more()
        taken, self.buffer = self.buffer[:n], self.buffer[n:]
        return taken

    def send(self, message):
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        else:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _message(self):
        """The next whole message: (opcode, payload); pings and pongs are passed over."""
        opcode, payload = None, b""
        while True:
            first, second = self._take(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._take(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._take(8))[0]
            data = self._take(length)
            kind = first & 0x0F
            if kind in (9, 10):
                continue
            if kind == 8:
                raise ConnectionError("closed: " + data[2:].decode(errors="replace"))
            opcode = opcode if kind == 0 else kind
            payload += data
            if first & 0x80:
                return opcode, payload

    def receive(self):
        """The next frame (a dict of its header and arrays); texts on the way are kept."""
        while True:
            opcode, payload = self._message()
            if opcode == 1:
                self.texts.append(json.loads(payload))
            else:
                return decode_frame(payload)

    def text(self, kind):
        """The next text message of `kind` ("flock", "metrics", "refused"), kept or coming."""
        while True:
            for i, message in enumerate(self.texts):
                if message["type"] == kind:
                    return self.texts.pop(i)
            opcode, payload = self._message()
            assert opcode == 1, "a frame came unasked"
            self.texts.append(json.loads(payload))

    def frame(self):
        self.send({"type": "next", "max_boids": 1 << 30})
        return self.receive()

    def close(self):
        self.sock.close()


def decode_frame(data):
    assert data[:4] == b"BOID" and data[4] == 4
    dimensions = data[5]
    step, count, total, stride = struct.unpack_from("<QIII", data, 8)
    at, position = 112, []  # past the header (host/serve/frame.h)
    for _ in range(dimensions):
        position.append(struct.unpack_from(f"<{count}H", data, at))
        at += 2 * count
    return {"dimensions": dimensions, "step": step, "count": count, "total": total,
            "stride": stride, "position": position}


def get(address, path="/"):
    url = urllib.parse.urlsplit(address)
    query = "?" + url.query if url.query else ""
    try:
        with urllib.request.urlopen(f"http://{url.hostname}:{url.port}{path}{query}",
                                    timeout=20) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, b""


@pytest.fixture
def flock():
    flock = boids.Flock(count=600, seed=5, backend="cpu")
    yield flock
    flock.stop_serving()


def test_the_page_and_the_flock_as_the_script_leaves_it(flock):
    flock.step(3)
    address = flock.serve(port=0)
    assert address.startswith("http://127.0.0.1:") and address.endswith("/")
    assert flock.serving == address
    status, body = get(address)
    assert status == 200 and b"<canvas" in body
    page = Page(address)
    described = page.text("flock")
    assert described["mode"] == "script" and described["count"] == 600
    assert described["controls"] == [] and described["backend"] == "cpu"
    first = page.frame()
    assert (first["step"], first["count"], first["total"], first["stride"]) == (3, 600, 600, 1)
    width = flock.params["world"]
    state = flock.state
    expected = [min(int(x / width * 65536), 65535) for x in state[:, 0]]
    assert list(first["position"][0]) == expected
    flock.step(4)
    assert page.frame()["step"] == 7
    flock.set_state(state)  # a change, not a step: a new frame all the same
    assert page.frame()["step"] == 7
    page.close()


def test_a_long_step_is_seen_as_it_goes(flock):
    big = boids.Flock(count=20000, seed=2, backend="cpu")
    try:
        # About a second of steps, in any build (the sanitizers' included).
        started = time.perf_counter()
        big.step(3)
        steps = max(30, min(600, int(3 / (time.perf_counter() - started))))
        page = Page(big.serve(port=0))
        assert page.frame()["step"] == 3
        stepping = threading.Thread(target=big.step, args=(steps,))
        stepping.start()
        seen = [page.frame()["step"]]
        while seen[-1] < 3 + steps:  # the last stretch's frame comes, whenever the page asks
            seen.append(page.frame()["step"])
        stepping.join()
        during = [s for s in seen if 3 < s < 3 + steps]
        assert len(during) >= 2 and during == sorted(during), seen
        metrics = page.text("metrics")
        assert 0 <= metrics["polarization"] <= 1 and 0 <= metrics["step"] <= 3 + steps
        page.close()
    finally:
        big.stop_serving()


def test_pages_watch_and_the_script_steers(flock):
    page = Page(flock.serve(port=0))
    page.text("flock")
    page.send({"type": "set", "name": "alignment", "value": 1.0})
    assert "Python script steps this flock" in page.text("refused")["message"]
    flock.set_params(radius=12)
    assert page.text("flock")["radius"] == 12
    assert page.frame()["count"] == 600  # still connected
    page.close()


def test_served_again_and_stopped(flock):
    first = flock.serve(port=0)
    page = Page(first)
    second = flock.serve(port=0)
    assert flock.serving == second != first
    with pytest.raises(ConnectionError):
        page.frame()
    assert Page(second).frame()["count"] == 600
    flock.stop_serving()
    assert flock.serving is None
    with pytest.raises(OSError):
        Page(second)
    flock.stop_serving()  # nothing served: nothing to do


def test_a_flock_that_ends_closes_its_pages():
    flock = boids.Flock(count=100, seed=1, backend="cpu")
    page = Page(flock.serve(port=0))
    page.frame()
    del flock
    with pytest.raises(ConnectionError):
        page.frame()


def test_beyond_loopback_a_token_is_made_up(flock):
    address = flock.serve(port=0, bind="0.0.0.0")
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(address).query)["token"][0]
    assert len(token) == 32
    port = urllib.parse.urlsplit(address).port
    assert get(f"http://127.0.0.1:{port}/")[0] == 403
    assert get(f"http://127.0.0.1:{port}/?token={token}")[0] == 200
    given = "a" * 20
    assert flock.serve(port=0, bind="0.0.0.0", token=given).endswith("?token=" + given)


def test_bad_requests_are_refused(flock):
    for port, error, words in [(-1, ValueError, "port: expected 0 (any) to 65535, got -1"),
                               (70000, ValueError, "port: expected 0 (any) to 65535"),
                               ("80", TypeError, "port must be an int"),
                               (True, TypeError, "port must be an int")]:
        with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
            flock.serve(port=port)
    with pytest.raises(ValueError, match="token: expected 16 to 128 letters and digits"):
        flock.serve(port=0, token="short")
    with pytest.raises(TypeError, match="bind must be a str"):
        flock.serve(port=0, bind=1)
    with pytest.raises(ValueError, match="not-an-address"):
        flock.serve(port=0, bind="not-an-address")
    assert flock.serving is None
    taken = flock.serve(port=0)
    other = boids.Flock(count=10, seed=1, backend="cpu")
    with pytest.raises(RuntimeError, match=str(urllib.parse.urlsplit(taken).port)):
        other.serve(port=urllib.parse.urlsplit(taken).port)
    assert other.serving is None
