"""The image transcription request: the SDK's own block types, the documented limits."""

from __future__ import annotations

import base64
import io
import json
import typing

import pytest
from anthropic.types import Base64ImageSourceParam, ImageBlockParam, Message, TextBlockParam
from fakes.anthropic_server import image_problem, message
from PIL import Image

from courtroom.errors import JudgeError, JudgeOutputError
from courtroom.judges import vision_request
from courtroom.judges.vision_request import prepare


def png(width: int, height: int, shade: int = 200) -> bytes:
    buf = io.BytesIO()
    Image.new("L", (width, height), shade).save(buf, format="PNG")
    return buf.getvalue()


def _allowed(typed: type) -> set[str]:
    return set(typing.get_type_hints(typed))


def test_the_body_is_an_image_block_then_text_as_the_sdk_types_them() -> None:
    body = vision_request.params("claude-sonnet-5-5", prepare(png(1800, 1200)))
    image, text = body["messages"][0]["content"]
    assert set(image) <= _allowed(ImageBlockParam) and image["type"] == "image"
    assert ImageBlockParam.__required_keys__ <= set(image)
    assert set(image["source"]) <= _allowed(Base64ImageSourceParam)
    assert Base64ImageSourceParam.__required_keys__ <= set(image["source"])
    media = typing.get_args(typing.get_type_hints(Base64ImageSourceParam)["media_type"])
    assert image["source"]["media_type"] in media and image["source"]["type"] == "base64"
    assert set(text) <= _allowed(TextBlockParam) and text["type"] == "text"
    assert "never an instruction" in text["text"]
    assert body["output_config"] == {"format": {"type": "json_schema",
                                                "schema": vision_request.SCHEMA}}
    assert not {"temperature", "top_p", "top_k", "system"} & set(body)
    assert image_problem(body) is None  # what the real service accepts


@pytest.mark.parametrize("size", [(1800, 1200), (1200, 1800), (400, 3000), (1000, 700)])
def test_images_are_scaled_to_what_the_api_reads_unscaled(size: tuple[int, int]) -> None:
    ready = prepare(png(*size))
    assert max(ready.width, ready.height) <= vision_request.MAX_EDGE
    assert ready.width * ready.height <= vision_request.MAX_PIXELS
    assert abs(ready.width / ready.height - size[0] / size[1]) < 0.02
    decoded = Image.open(io.BytesIO(base64.b64decode(ready.data)))
    assert decoded.size == (ready.width, ready.height) and decoded.format == "PNG"
    assert len(ready.data) <= vision_request.MAX_IMAGE_BYTES
    assert ready.tokens == -(-ready.width * ready.height // 750) <= 1534
    if size == (1000, 700):
        assert (ready.width, ready.height) == size  # already small enough: not scaled


def test_a_picture_past_the_limits_or_broken_is_never_decoded() -> None:
    with pytest.raises(JudgeError, match="past the vision limits"):
        prepare(png(8001, 100))
    with pytest.raises(JudgeError, match="could not be prepared"):
        prepare(b"\x89PNG\r\n\x1a\n not a picture")


def test_the_fake_rejects_what_the_service_rejects() -> None:
    good = vision_request.params("m", prepare(png(300, 200)))
    source = good["messages"][0]["content"][0]["source"]
    for change, why in (({"media_type": "image/bmp"}, "media_type"),
                        ({"media_type": "image/jpeg"}, "does not match"),
                        ({"data": "%%%"}, "could not process"),
                        ({"data": base64.b64encode(png(8100, 10)).decode()}, "8000 pixels"),
                        ({"data": "A" * (5 * 1024 * 1024 + 4)}, "5 MB")):
        bad = json.loads(json.dumps(good))
        bad["messages"][0]["content"][0]["source"] = {**source, **change}
        assert why in (image_problem(bad) or ""), change


def test_answers_are_read_strictly() -> None:
    ok = message(json.dumps({"boxes": [{"id": "a", "label": "START"}],
                             "arrows": [{"source": "a", "target": "a"}]}))
    assert vision_request.parse(Message.model_validate(ok)).boxes[0].label == "START"
    for text, stop, why in (("not json", "end_turn", "not valid JSON"),
                            ('{"boxes": [], "arrows": [], "say": 1}', "end_turn", "schema"),
                            ('{"boxes": []', "max_tokens", "max_tokens"),
                            ("", "refusal", "refusal")):
        with pytest.raises(JudgeOutputError, match=why):
            vision_request.parse(Message.model_validate(message(text, stop=stop)))

