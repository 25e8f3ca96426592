"""The mock server's WebSocket endpoints driven by a client nobody here wrote: Python's `websockets` (sync client).

Run by Tests/Streams/run.sh, which starts `mock-server --contracts Tests/Streams/Contracts --ws-max-message 4096` and
passes its address in MOCK_SERVER_URL.
"""
import json
import os
import time
import unittest
import urllib.request

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

BASE = os.environ["MOCK_SERVER_URL"]
WS = BASE.replace("http://", "ws://")


def admin_post(path, body):
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


class WebSocketTests(unittest.TestCase):
    def test_greeting_replies_by_json_pointer_and_echo(self):
        with connect(WS + "/chat", subprotocols=["chat.v2", "chat.v1"], open_timeout=5) as ws:
            self.assertEqual(ws.subprotocol, "chat.v2")
            self.assertEqual(json.loads(ws.recv(timeout=5)), {"type": "welcome"})
            ws.send(json.dumps({"type": "ping", "n": 1}))
            self.assertEqual(json.loads(ws.recv(timeout=5)), {"type": "pong"})
            ws.send("héllo, wörld")
            self.assertEqual(ws.recv(timeout=5), "héllo, wörld")
            ws.send(bytes(range(256)))
            self.assertEqual(ws.recv(timeout=5), bytes(range(256)))

    def test_delayed_replies_arrive_in_order_at_their_times(self):
        with connect(WS + "/chat", open_timeout=5) as ws:
            ws.recv(timeout=5)
            started = time.monotonic()
            ws.send("count")
            got = [(ws.recv(timeout=5), time.monotonic() - started) for _ in range(3)]
            self.assertEqual([text for text, _ in got], ["one", "two", "three"])
            self.assertLess(got[0][1], 0.05)
            self.assertAlmostEqual(got[1][1], 0.05, delta=0.04)
            self.assertAlmostEqual(got[2][1], 0.10, delta=0.04)

    def test_a_fragmented_message_is_one_message(self):
        with connect(WS + "/chat", open_timeout=5) as ws:
            ws.recv(timeout=5)
            ws.send(["frag", "ment", "ed"])
            self.assertEqual(ws.recv(timeout=5), "fragmented")

    def test_ping_gets_its_pong(self):
        with connect(WS + "/chat", open_timeout=5) as ws:
            ws.recv(timeout=5)
            pong = ws.ping(b"are you there")
            self.assertTrue(pong.wait(timeout=5))

    def test_the_script_closes_after_its_messages_with_its_code(self):
        with connect(WS + "/chat", open_timeout=5) as ws:
            ws.recv(timeout=5)
            with self.assertRaises(ConnectionClosed) as closed:
                for index in range(25):
                    ws.send(f"message {index}")
                    self.assertEqual(ws.recv(timeout=5), f"message {index}")
            self.assertEqual(closed.exception.rcvd.code, 4000)
            self.assertEqual(closed.exception.rcvd.reason, "that is enough")

    def test_a_message_over_the_limit_closes_with_1009(self):
        with connect(WS + "/chat", open_timeout=5, max_size=None) as ws:
            ws.recv(timeout=5)
            ws.send("x" * 5000)
            with self.assertRaises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            self.assertEqual(closed.exception.rcvd.code, 1009)

    def test_a_client_close_is_answered_with_its_code(self):
        ws = connect(WS + "/chat", open_timeout=5)
        ws.recv(timeout=5)
        ws.close(code=1000, reason="done")
        self.assertEqual(ws.protocol.close_rcvd.code, 1000)

    def test_a_push_reaches_only_the_session_it_names(self):
        with connect(WS + "/chat?session=one", open_timeout=5) as one, \
                connect(WS + "/chat", additional_headers={"X-Mock-Session": "two"}, open_timeout=5) as two:
            one.recv(timeout=5)
            two.recv(timeout=5)
            self.assertEqual(admin_post("/__mock/streams/chat/send?session=two", {"json": {"news": 1}}), {"sent": 1})
            self.assertEqual(json.loads(two.recv(timeout=5)), {"news": 1})
            with self.assertRaises(TimeoutError):
                one.recv(timeout=0.3)

    def test_a_path_no_contract_has_refuses_the_upgrade_with_404(self):
        with self.assertRaises(InvalidStatus) as refused:
            connect(WS + "/nowhere", open_timeout=5)
        self.assertEqual(refused.exception.response.status_code, 404)


if __name__ == "__main__":
    unittest.main(verbosity=2)
