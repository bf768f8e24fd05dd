import pytest

from envsuite.sandbox.output_limits import HeadTailBuffer, OutputLimits


def test_short_output_is_kept_whole():
    buffer = HeadTailBuffer(OutputLimits(keep_bytes=100))
    buffer.feed(b"hello ")
    buffer.feed(b"world")
    assert buffer.text() == "hello world"
    assert buffer.bytes_cut == 0 and buffer.total == 11 and not buffer.full


def test_long_output_keeps_head_and_tail_and_counts_the_cut():
    buffer = HeadTailBuffer(OutputLimits(keep_bytes=10, stream_bytes=10_000))
    for chunk in (b"0123456789", b"abcdefghij", b"KLMNOPQRST"):
        buffer.feed(chunk)
    assert buffer.total == 30
    assert buffer.bytes_cut == 20
    assert buffer.text() == "01234\n[... 20 bytes cut ...]\nPQRST"
    with pytest.raises(ValueError):
        buffer.data()


def test_memory_stays_bounded_and_the_stream_limit_marks_full():
    buffer = HeadTailBuffer(OutputLimits(keep_bytes=64, stream_bytes=1000))
    for _ in range(100):
        buffer.feed(b"x" * 97)
    assert buffer.full and buffer.total == 1000
    assert len(buffer.text().encode()) < 200


def test_cut_multibyte_characters_decode_with_replacement():
    buffer = HeadTailBuffer(OutputLimits(keep_bytes=4, stream_bytes=100))
    buffer.feed("ééééé".encode())
    assert "bytes cut" in buffer.text()


def test_limits_validate():
    with pytest.raises(ValueError):
        OutputLimits(keep_bytes=1)
    with pytest.raises(ValueError):
        OutputLimits(keep_bytes=100, stream_bytes=10)
