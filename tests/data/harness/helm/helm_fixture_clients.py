"""Deterministic offline "models" for generating the simstats HELM fixture.

This module is NOT part of simstats and NOT part of HELM.  It is a HELM client
plugin (loaded by ``helm-run`` through ``prod_env/model_deployments.yaml``) used
only by ``make_fixture.sh`` so that HELM itself can run, offline, two different
systems on the same instances of HELM's built-in ``simple_mcqa`` scenario
("Is N even or odd?  A. Even / B. Odd").

The answers are synthetic: each request is answered correctly or not by a
deterministic rule that mixes
  * a per-question difficulty shared by all models (so the two systems' errors
    are positively correlated, as for real models), and
  * per-request noise keyed by (model seed, full prompt), so the answer changes
    with the model, with the in-context examples of each train trial, and with
    the perturbed input text;
plus an accuracy penalty when the question text is not the canonical
"Is N even or odd?" (i.e. a perturbed input).

Everything HELM writes (per_instance_stats.json, stats.json, ...) is computed by
HELM's own adapters and metrics from these completions.
"""

import hashlib
import math
import re
from typing import Any, Dict, List

from helm.clients.client import CachingClient
from helm.common.cache import CacheConfig
from helm.common.request import GeneratedOutput, Request, RequestResult, Token, wrap_request_time

_CANONICAL = re.compile(r"^Is \d+ even or odd\?$")


def _unit(*parts: str) -> float:
    """A deterministic pseudo-uniform number in [0, 1) from strings."""
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


class ParityFixtureClient(CachingClient):
    """Answers the last multiple-choice parity question of the prompt with a letter."""

    def __init__(self, cache_config: CacheConfig, seed: str, ability: float, perturbed_penalty: float = 0.1):
        super().__init__(cache_config=cache_config)
        self.seed = seed
        self.ability = ability
        self.perturbed_penalty = perturbed_penalty

    def _answer(self, prompt: str, k: int) -> Dict[str, Any]:
        # The last question block of the prompt is the evaluated instance.
        block = prompt.rsplit("Question:", 1)[-1]
        lines = [line.strip() for line in block.strip().splitlines()]
        question = lines[0] if lines else ""
        options = {}
        for line in lines[1:]:
            m = re.match(r"^([A-Z])\.\s+(.*)$", line)
            if m:
                options[m.group(2).strip().lower()] = m.group(1)
        numbers = re.findall(r"\d+", question)
        if not numbers or not options:
            return {"text": "A", "p": 0.5}
        n = int(numbers[-1])
        truth = "even" if n % 2 == 0 else "odd"
        wrong = "odd" if truth == "even" else "even"
        difficulty = _unit("difficulty", str(n))
        noise = _unit(self.seed, str(k), prompt)
        threshold = self.ability - (0 if _CANONICAL.match(question) else self.perturbed_penalty)
        correct = 0.5 * difficulty + 0.5 * noise < threshold
        letter = options.get(truth if correct else wrong, "A")
        confidence = 0.5 + 0.5 * abs(threshold - (0.5 * difficulty + 0.5 * noise))
        return {"text": letter, "p": confidence}

    def make_request(self, request: Request) -> RequestResult:
        raw_request = {
            "engine": request.model_engine,
            "seed": self.seed,
            "ability": self.ability,
            "perturbed_penalty": self.perturbed_penalty,
            "prompt": request.prompt,
            "num_completions": request.num_completions,
        }

        def do_it() -> Dict[str, Any]:
            return {"completions": [self._answer(request.prompt, k) for k in range(request.num_completions)]}

        cache_key = CachingClient.make_cache_key(raw_request, request)
        response, cached = self.cache.get(cache_key, wrap_request_time(do_it))
        completions: List[GeneratedOutput] = []
        for c in response["completions"]:
            logprob = math.log(c["p"])
            completions.append(
                GeneratedOutput(text=c["text"], logprob=logprob, tokens=[Token(text=c["text"], logprob=logprob)])
            )
        return RequestResult(
            success=True,
            cached=cached,
            request_time=response["request_time"],
            request_datetime=response.get("request_datetime"),
            completions=completions,
            embedding=[],
        )
