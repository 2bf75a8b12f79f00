"""The two ends of a sandbox's socket: the grader's (never blocks, trusts nothing) and the sandbox's.

:class:`GraderEnd` sends and receives with deadlines, in one ``select`` loop: while it writes a
large message it keeps reading what the sandbox sends (so the two ends cannot deadlock, each
waiting for the other to read), and what it reads is bounded (a frame over the caps of
:mod:`.protocol` ends the submission before its bytes are read). :class:`SandboxEnd` is the plain
blocking end the runner uses inside the sandbox.
"""

from __future__ import annotations

import os
import select
import socket
import time

from attention_course.convert import PREFIX

from . import protocol
from .protocol import ProtocolError

CHUNK = 1 << 20


class Deadline(TimeoutError):
    """The sandbox did not answer in time."""


class Closed(EOFError):
    """The sandbox's end of the socket is closed (its process ended)."""


class GraderEnd:
    def __init__(self, sock: socket.socket, max_header: int = protocol.MAX_HEADER,
                 max_payload: int = protocol.MAX_PAYLOAD):
        self.sock = sock
        self.sock.setblocking(False)
        self.max_header, self.max_payload = max_header, max_payload
        self.inbox = bytearray()
        self.received_bytes = 0

    def _pump(self, deadline: float, outgoing: memoryview | None = None) -> memoryview | None:
        """Wait until something was read or written (or the deadline); returns what is left to write."""
        wait = deadline - time.monotonic()
        if wait <= 0:
            raise Deadline()
        writers = [self.sock] if outgoing is not None and len(outgoing) else []
        readable, writable, _ = select.select([self.sock], writers, [], wait)
        if readable:
            try:
                chunk = self.sock.recv(CHUNK)
            except (BlockingIOError, InterruptedError):
                chunk = None
            except OSError:
                chunk = b""
            if chunk == b"":
                raise Closed()
            if chunk:
                self.inbox += chunk
                self.received_bytes += len(chunk)
                self._check_sizes()
        if writable and outgoing is not None:
            try:
                sent = self.sock.send(outgoing)
            except (BlockingIOError, InterruptedError):
                sent = 0
            except OSError:
                raise Closed() from None
            outgoing = outgoing[sent:]
        return outgoing

    def _check_sizes(self) -> None:
        # The sandbox speaks only when asked, one message at a time: more than one frame's worth
        # waiting is a flood, not an answer.
        if len(self.inbox) > PREFIX.size + self.max_header + self.max_payload:
            raise ProtocolError("sent more than it was asked for")
        if len(self.inbox) >= PREFIX.size:
            header, payload = PREFIX.unpack_from(self.inbox)
            if header > self.max_header or payload > self.max_payload:
                raise ProtocolError(f"a message of {header + payload} bytes, over the limit of "
                                    f"{self.max_header + self.max_payload}")

    def send(self, message: dict, deadline: float) -> None:
        outgoing: memoryview | None = memoryview(protocol.pack(message))
        while outgoing is not None and len(outgoing):
            outgoing = self._pump(deadline, outgoing)

    def _frame(self) -> tuple[bytes, bytes] | None:
        if len(self.inbox) < PREFIX.size:
            return None
        header, payload = PREFIX.unpack_from(self.inbox)
        end = PREFIX.size + header + payload
        if len(self.inbox) < end:
            return None
        frame = bytes(self.inbox[PREFIX.size:end])
        del self.inbox[:end]
        return frame[:header], frame[header:]

    def receive(self, deadline: float, schema: dict = protocol.FROM_SANDBOX) -> dict:
        while (frame := self._frame()) is None:
            self._pump(deadline)
        message = protocol.parse(*frame, schema)
        self._check_sizes()  # the next frame's prefix may already be here
        return message

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


class SandboxEnd:
    """Blocking frames over a file descriptor (inside the sandbox)."""

    def __init__(self, fd: int):
        self.fd = fd

    def send(self, message: dict) -> None:
        view = memoryview(protocol.pack(message))
        while view:
            view = view[os.write(self.fd, view):]

    def _read(self, size: int) -> bytes:
        parts, left = [], size
        while left:
            chunk = os.read(self.fd, min(left, CHUNK))
            if not chunk:
                raise Closed()
            parts.append(chunk)
            left -= len(chunk)
        return b"".join(parts)

    def receive(self) -> dict:
        header, payload = PREFIX.unpack(self._read(PREFIX.size))
        data = self._read(header + payload)
        return protocol.parse(data[:header], data[header:], None)
