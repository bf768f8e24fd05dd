"""envsuite's env server: every registered env behind OpenEnv's interface.

``envsuite serve envsuite/Wordle-v0 envsuite/SAT-v0 --port 8000`` (or :func:`serve`)
serves the envs over HTTP and WebSocket, as OpenEnv's servers do (see
:mod:`envsuite.serve.app` for the routes and :mod:`envsuite.remote.protocol` for the
messages); :func:`envsuite.remote.make` is the client that turns a served env back into a
Gymnasium or PettingZoo env. Each session owns one env made with :func:`envsuite.make`;
clients choose the seed and, within an allow-list, the env's kwargs
(:mod:`envsuite.serve.kwargs_policy`); idle sessions are closed with their envs.

Layer: above evaluation, below the command line (``cli -> serve``). Needs the ``serve``
extra (Starlette and uvicorn).
"""

from envsuite.serve.config import LOOPBACK, ServeConfig
from envsuite.serve.server import RunningServer, serve

__all__ = ["LOOPBACK", "RunningServer", "ServeConfig", "serve"]
