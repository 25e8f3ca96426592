"""Load for Tests/Benchmarks/streams.sh, with Python's websockets (asyncio).

  hold <base-url> <websockets> <event-streams>   opens that many idle WebSockets (/chat) and busy event streams
                                                  (/busy), prints "ready", and holds them until killed
  echo <ws-url> <messages> <window>              sends <messages> text messages on one WebSocket, <window> in flight
                                                  at a time, checks every echo, prints messages per second
  echo-server <port>                             websockets' own echo server, for the reference figure
"""
import asyncio
import sys
import time

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


async def hold(base, sockets, streams):
    host, port = base.replace("http://", "").split(":")
    opened = [await connect(f"ws://{host}:{port}/chat", max_queue=None) for _ in range(sockets)]
    readers = []
    for _ in range(streams):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(f"GET /busy HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        readers.append((reader, writer))

    async def drain(reader):
        while await reader.read(65536):
            pass

    tasks = [asyncio.create_task(drain(reader)) for reader, _ in readers]
    print("ready", flush=True)
    await asyncio.gather(*tasks)
    del opened


async def echo(url, count, window):
    async with connect(url, max_size=None, max_queue=None) as socket:
        message = "x" * 32
        started = time.monotonic()
        sent = received = 0
        while received < count:
            while sent < count and sent - received < window:
                await socket.send(message)
                sent += 1
            reply = await socket.recv()
            assert reply == message, reply
            received += 1
        took = time.monotonic() - started
        print(int(count / took))


async def echo_server(port):
    async def handler(socket):
        async for message in socket:
            await socket.send(message)

    async with serve(handler, "127.0.0.1", port, max_size=None, max_queue=None, compression=None):
        print("ready", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "hold":
        asyncio.run(hold(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    elif command == "echo":
        asyncio.run(echo(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    elif command == "echo-server":
        asyncio.run(echo_server(int(sys.argv[2])))
    else:
        sys.exit(__doc__)
