"""A trained policy at an online table: exported from a short training run, offered by the server
(``--policies DIR``), seated by the host, and playing a round to its end with a person."""
from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets")
pytest.importorskip("onnxruntime")
pytest.importorskip("torch")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness import ServerProc, ahttp, http, play_person, seat_people

ROOT = Path(__file__).resolve().parents[2]


def test_a_trained_policy_plays_a_round_at_an_online_table(tmp_path: Path) -> None:
    policies = tmp_path / "policies"
    policies.mkdir()
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_ppo.py"), "--max-steps", "256", "--envs", "4",
         "--steps", "64", "--out", str(tmp_path / "p.npz"), "--onnx", str(policies / "ppo.onnx")],
        check=True, timeout=280, capture_output=True,
    )
    (policies / "broken.onnx").write_bytes(b"not a model")  # reported and skipped, not fatal
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    server = ServerProc(db, tmp_path, options=("--policies", str(policies)))
    server.start()
    try:
        status, doc = http("GET", f"{server.url}/api/options")
        assert status == 200 and doc["bot_levels"][-1] == "ppo"
        assert {"name": "ppo", "kind": "policy"} in doc["bots"]
        assert "broken" not in doc["bot_levels"]
        assert "broken.onnx: skipped" in server.log_path.read_text()

        async def main() -> None:
            status, refused = await ahttp("POST", f"{server.url}/api/tables",
                                          {"preset": "official", "seats": 2, "bots": [None, "nosuch"]})
            assert status == 400 and "nosuch" in refused["message"] and "ppo" in refused["message"]
            match = await seat_people(server, "official", humans=(0,), bots=[None, "ppo"], seats=2,
                                      spectator=False)
            person = match.humans[0]

            def round_over(client: object) -> bool:
                view = person.view
                return view is not None and view["phase"] in ("round_over", "match_over")

            await play_person(person, random.Random(3), until=round_over, timeout=120)
            status, public = await ahttp("GET", f"{server.url}/api/tables/{match.table}")
            assert public["seats"][1]["kind"] == "bot" and public["seats"][1]["level"] == "ppo"
            await person.close()

        asyncio.run(main())
    finally:
        server.stop()
