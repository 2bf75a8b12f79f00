"""End to end in a real browser: JupyterLab, started the way README says, runs notebook 01 and validates it.

Debian's Chromium (``apt-get install chromium``, ``/usr/bin/chromium``) is driven by Playwright's
Python package; Playwright's own browser download is not used. JupyterLab is started through
the command ``python3 tasks.py lab`` (README's) runs, ``<venv python> -m jupyter lab``, taken from
tasks.py and started in the repository root with tasks.py's environment, with extra arguments: no
browser, a free port on 127.0.0.1, a known token, and as root directory a temporary copy of
``notebooks/`` in which notebook 01 has its solutions filled in (tasks.py cannot simply be given
another ``--ServerApp.root_dir``: the server refuses a second one). The repository's notebooks are
never written to.

The test opens notebook 01, runs *Run → Run All Cells*, waits for every code cell to finish and
the kernel to be idle, checks that the attention heatmap is shown and no cell raised, then presses
nbgrader's **Validate** button and checks that its dialog reports success. It also checks what a
learner must not see, with the environment ``tasks.py lab`` sets (``tasks.lab_environment``, its
learners' Jupyter configuration) and no settings of the test's own: no "Jupyter news" pop-up, no
nbgrader instructor tools (no Nbgrader menu, no Formgrader, Create Assignment or Course List, and
no formgrader page on the server). Screenshots (after the run, after validation, on failure) and
JupyterLab's log go to ``artifacts/browser/``.

Without ``/usr/bin/chromium`` the test is skipped, unless the environment variable ``CI`` is set:
then it fails, so that CI really runs it (``.ci/run`` installs Chromium when it can).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import tasks  # noqa: E402
from autograder import NOTEBOOKS, SOLUTIONS  # noqa: E402
from autograder import notebooks as nbio  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = REPO / "artifacts" / "browser"
NOTEBOOK = "01_attention_without_weights.ipynb"
# nbgrader 0.9.6's labextension (static/161.*.js) writes exactly this into its "Validation Results"
# dialog, in a <div class="validation-success">, when every test cell passes.
VALIDATE_SUCCESS = "Success! Your notebook passes all the tests."
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
    "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps", "--disable-extensions",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
    "--metrics-recording-only", "--mute-audio",
]

# Generous limits: two slow shared cores, a kernel that imports PyTorch, and Validate runs the whole
# notebook once more in a fresh kernel.
SERVER_START_S = 240
PAGE_LOAD_S = 180
RUN_ALL_S = 420
VALIDATE_S = 420

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _http(url: str, token: str, method: str = "GET", timeout: float = 5) -> int:
    request = urllib.request.Request(url, method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.status


def _log_tail(path: Path, chars: int = 4000) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")[-chars:]
    except OSError:
        return "(no log)"


@pytest.fixture
def chromium() -> Path:
    if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    reason = (f"{CHROMIUM} is missing: install Debian's Chromium (apt-get install -y chromium) "
              "to run the browser test")
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail(f"{reason}; CI is set, so the browser test must run", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for stale in ("01-after-run-all.png", "02-after-validate.png", "failure.png", "jupyterlab.log"):
        (ARTIFACTS / stale).unlink(missing_ok=True)
    return ARTIFACTS


@pytest.fixture
def lab(tmp_path, artifacts, request):
    """JupyterLab on a temporary copy of notebooks/ with notebook 01 solved; yields (url, root, token).

    The finalizer shuts the server down through its API (which also shuts down its kernels), then
    ends whatever of its process tree is still alive, so no process outlives the test.
    """
    root = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    solved = nbio.fill_solutions(nbio.read(NOTEBOOKS / NOTEBOOK), nbio.read(SOLUTIONS / NOTEBOOK))
    (root / NOTEBOOK).write_text(nbio.dumps(solved), encoding="utf-8")
    n_code = sum(cell.cell_type == "code" for cell in solved.cells)

    port, token = _free_port(), secrets.token_hex(24)
    home = tmp_path / "jupyter"
    env = {key: value for key, value in os.environ.items()
           if key != "ATTENTION_COURSE_INSTALL" and not key.startswith(("JUPYTER", "JPY_"))}
    # What tasks.run() adds to the environment.
    env["PATH"] = f"{tasks.BIN}{os.pathsep}{env.get('PATH', '')}"
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(
        # The learner's own JupyterLab settings, workspaces and runtime files stay out of the test.
        JUPYTER_CONFIG_DIR=str(home / "config"),
        JUPYTER_RUNTIME_DIR=str(home / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"),
        PYTHONUNBUFFERED="1",
    )
    # No setting of the test's own hides the news pop-up: the configuration tasks.py passes must.
    command, lab_env = _lab_command(root, [
        "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ])  # tasks.py adds --allow-root itself when run as root (CI runs as root in a container)
    env.update(lab_env)  # the learners' Jupyter configuration (tasks.lab_environment)
    _, base = start_jupyter(command, env, artifacts / "jupyterlab.log", port, token, request, "JupyterLab")
    # nbgrader's instructor pages are not served to learners; Validate's handler is.
    for instructor_page in ("formgrader", "formgraders", "courses"):
        try:
            code = _http(f"{base}/{instructor_page}", token)
        except urllib.error.HTTPError as error:
            code = error.code
        assert code == 404, f"/{instructor_page} answered {code}: nbgrader's instructor tools are on"
    # The root_dir override took effect: the server sees the temporary copy, not notebooks/.
    request_contents = urllib.request.Request(f"{base}/api/contents/{NOTEBOOK}?content=0",
                                              headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request_contents, timeout=30) as response:
        assert json.load(response)["path"] == NOTEBOOK
    yield base, root, token, n_code


def _lab_command(root: Path, extra: list[str]) -> tuple[list[str], dict[str, str]]:
    """The command `python3 tasks.py lab EXTRA...` runs, taken from tasks.py, with root_dir=root, and
    the variables tasks.py adds to its environment."""
    captured: list[list[str]] = []
    environments: list[dict[str, str]] = []

    def run(*args, **kwargs) -> int:
        captured.append([str(arg) for arg in args])
        environments.append(dict(kwargs.get("extra_env") or {}))
        return 0

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tasks, "setup", lambda: None)
        patch.setattr(tasks, "run", run)
        tasks.main(["lab", *extra])
    assert len(captured) == 1, captured
    command = captured[0]
    roots = [i for i, arg in enumerate(command) if arg.startswith("--ServerApp.root_dir=")]
    assert roots and command[roots[0]] == f"--ServerApp.root_dir={NOTEBOOKS}", command
    command[roots[0]] = f"--ServerApp.root_dir={root}"
    assert command[:4] == [str(tasks.PYTHON), "-m", "jupyter", "lab"], command
    lab_env = environments[0]
    assert str(tasks.LEARNER_JUPYTER_CONFIG) in lab_env.get("JUPYTER_CONFIG_PATH", ""), lab_env
    return command, lab_env


def start_jupyter(command: list[str], env: dict, log_path: Path, port: int, token: str, request,
                  what: str) -> tuple[subprocess.Popen, str]:
    """Start a Jupyter server command, its output in ``log_path``; wait until it answers on ``port``;
    stop its whole tree when the test ends. Returns the process and its base URL."""
    log = open(log_path, "w", encoding="utf-8")  # closed by the finalizer
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"

    def stop() -> None:
        _stop_tree(process, base, token)
        log.close()

    request.addfinalizer(stop)
    deadline = time.monotonic() + SERVER_START_S
    while True:
        if process.poll() is not None:
            pytest.fail(f"{what} exited with {process.returncode} before serving:\n{_log_tail(log_path)}",
                        pytrace=False)
        try:
            if _http(f"{base}/api/status", token) == 200:
                return process, base
        except (OSError, urllib.error.URLError):
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not answer on {base} within {SERVER_START_S} s:\n{_log_tail(log_path)}",
                        pytrace=False)
        time.sleep(0.5)


def _stop_tree(process: subprocess.Popen, base: str, token: str) -> None:
    """Shut JupyterLab down gracefully, then end any process of its tree still alive."""
    try:
        import psutil

        tree = [psutil.Process(process.pid), *psutil.Process(process.pid).children(recursive=True)]
    except Exception:  # psutil missing, or the process already gone
        tree = []
    if process.poll() is None:
        try:
            _http(f"{base}/api/shutdown", token, method="POST", timeout=30)
        except (OSError, urllib.error.URLError):
            pass
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if process.poll() is None:
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                pass
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
    # Kernels run in sessions of their own; end those the server left behind.
    for proc in tree[1:]:
        try:
            if proc.is_running() and proc.status() != "zombie":
                proc.terminate()
        except Exception:
            pass
    for proc in tree[1:]:
        try:
            proc.wait(timeout=10)
        except Exception:
            try:
                proc.kill()
            except Exception:
                pass


def _code_cell_prompts(page) -> list[str]:
    # textContent, not innerText: off-screen cells (content-visibility: auto) have no rendered text.
    prompts = page.locator(".jp-NotebookPanel:visible .jp-CodeCell .jp-InputPrompt")
    return [text.strip() for text in prompts.all_text_contents()]


def _wait_until(predicate, timeout_s: float, what: str, page, details=lambda: "",
                interval_s: float = 1.0):
    deadline = time.monotonic() + timeout_s
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}; {details()}")
        page.wait_for_timeout(interval_s * 1000)


def test_notebook_01_runs_and_validates_in_jupyterlab(chromium, lab, artifacts):
    from playwright.sync_api import expect, sync_playwright

    base, root, token, n_code = lab
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)
            try:
                _drive(page, base, root, token, n_code, artifacts, expect)
            except BaseException:
                try:
                    page.screenshot(path=str(artifacts / "failure.png"))
                except Exception:
                    pass
                raise
        finally:
            browser.close()


def _drive(page, base: str, root: Path, token: str, n_code: int, artifacts: Path,
           expect) -> None:
    page.goto(f"{base}/lab/tree/{NOTEBOOK}?token={token}", timeout=PAGE_LOAD_S * 1000)
    panel = page.locator(".jp-NotebookPanel:visible")
    expect(panel).to_have_count(1, timeout=PAGE_LOAD_S * 1000)
    # Every code cell of the file is in the page (JupyterLab attaches cells progressively) ...
    expect(panel.locator(".jp-CodeCell")).to_have_count(n_code, timeout=PAGE_LOAD_S * 1000)
    # ... and the notebook's kernel (python3, from its metadata) has started and is idle.
    expect(panel.locator(".jp-Toolbar-kernelName")).to_contain_text("Python 3",
                                                                     timeout=PAGE_LOAD_S * 1000)
    status = page.locator("#jp-main-statusbar")
    expect(status).to_contain_text("Python 3 (ipykernel) | Idle", timeout=PAGE_LOAD_S * 1000)
    indicator = panel.locator(".jp-Notebook-ExecutionIndicator")
    expect(indicator).to_have_attribute("data-status", "idle", timeout=PAGE_LOAD_S * 1000)

    # Run → Run All Cells, from the menu bar, as a learner would.
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()

    def all_ran():
        prompts = _code_cell_prompts(page)
        return len(prompts) == n_code and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts)

    _wait_until(all_ran, RUN_ALL_S, "every code cell to show an execution count", page,
                lambda: f"prompts: {_code_cell_prompts(page)}")
    expect(indicator).to_have_attribute("data-status", "idle", timeout=RUN_ALL_S * 1000)
    expect(status).to_contain_text("Python 3 (ipykernel) | Idle", timeout=RUN_ALL_S * 1000)

    # No cell raised: an error output is rendered as stderr text holding the traceback.
    stderr = panel.locator('.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"]')
    errors = [text for text in stderr.all_inner_texts()
              if re.search(r"Traceback|Error|Exception", text)]
    assert not errors, "a cell raised in JupyterLab:\n" + "\n---\n".join(t[-2000:] for t in errors)

    # The heatmap: an image output that the browser actually decoded.
    image = panel.locator('.jp-RenderedImage[data-mime-type="image/png"] img')
    expect(image.first).to_be_attached()
    image.last.scroll_into_view_if_needed()
    expect(image.last).to_be_visible()
    width = image.last.evaluate("img => img.naturalWidth")
    assert width > 100, f"the heatmap image has natural width {width}"
    page.screenshot(path=str(artifacts / "01-after-run-all.png"))

    # What learners must not see. By now (minutes after the page loaded) JupyterLab would have
    # asked about Jupyter news, in a toast, had its announcements been on.
    news = page.get_by_text(re.compile(r"Jupyter news", re.I))
    assert news.count() == 0, "JupyterLab asks about Jupyter news: " + " / ".join(news.all_inner_texts())
    menus = [label.strip() for label in page.locator(".lm-MenuBar-itemLabel").all_inner_texts()]
    assert "Run" in menus and "Nbgrader" not in menus, f"menu bar: {menus}"
    for tool in ("Formgrader", "Create Assignment", "Course List", "Assignment List"):
        assert page.get_by_text(tool, exact=True).count() == 0, f"{tool!r} is shown to learners"
    page.keyboard.press("Control+Shift+C")  # the command palette lists every command a plugin added
    palette = page.locator(".lm-CommandPalette:visible")
    if palette.count():
        commands = " | ".join(palette.locator(".lm-CommandPalette-itemLabel").all_inner_texts())
        assert not re.search(r"formgrader|create assignment|course list", commands, re.I), commands
        page.keyboard.press("Escape")

    # nbgrader's Validate button (notebook toolbar): saves, then validates on the server.
    button = panel.locator(".jp-Toolbar .validate-button")
    expect(button).to_be_visible()
    button.locator("jp-button, button").first.click()
    # Any dialog: "Validation Results", or "Validation failed" / "Version Mismatch" at once.
    dialog = page.locator(".jp-Dialog")
    expect(dialog).to_be_visible(timeout=VALIDATE_S * 1000)
    page.screenshot(path=str(artifacts / "02-after-validate.png"))
    title, text = dialog.locator(".jp-Dialog-header").inner_text(), dialog.inner_text()
    assert title.strip() == "Validation Results", f"Validate answered {title!r}:\n{text[-3000:]}"
    assert VALIDATE_SUCCESS in text, f"Validate did not report success:\n{text[-3000:]}"
    expect(dialog.locator(".validation-success")).to_have_count(1)
    dialog.get_by_role("button", name="Ok").click()
    expect(dialog).to_have_count(0)

    # Validate saved the notebook first: the file on disk holds the outputs, without an error.
    saved = json.loads((root / NOTEBOOK).read_text(encoding="utf-8"))
    outputs = [o for c in saved["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o["output_type"] == "error"], "the saved notebook has an error"
    assert any("image/png" in o.get("data", {}) for o in outputs), "the saved notebook has no image"


HOSTILE = ('<script>document.title="PWNED"</script><img src="x" onerror="document.title=\'PWNED\'">'
           '<a id="js" href="javascript:document.title=\'PWNED\'">link</a>'
           '<svg onload="document.title=\'PWNED\'"></svg><iframe src="javascript:parent.document.title=\'PWNED\'">'
           '</iframe><b onmouseover="document.title=\'PWNED\'">bold</b>')


@pytest.mark.browser
def test_a_feedback_page_runs_nothing_a_learner_wrote(chromium, tmp_path):
    """A feedback page of a submission with scripts in its Markdown, its HTML outputs and a JavaScript
    output, as the grader writes it, opened in Chromium: its title stays, no dialog opens, clicking
    and hovering runs nothing."""
    import nbformat
    from playwright.sync_api import sync_playwright

    from autograder.feedback import FeedbackExporter, note_cells

    v4 = nbformat.v4
    nb = v4.new_notebook(cells=[
        v4.new_markdown_cell("# Feedback\n\n" + HOSTILE),
        v4.new_code_cell("display(HTML(...))", outputs=[
            v4.new_output("display_data", data={"text/html": HOSTILE, "text/plain": "x"}),
            v4.new_output("display_data", data={"application/javascript": "document.title='PWNED'"})])])
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells[:0] = note_cells([f"edited test cell {HOSTILE}"], 0)
    html, _ = FeedbackExporter().from_notebook_node(nb)  # the grader's exporter (write_page adds the grades)
    page_path = tmp_path / "feedback.html"
    page_path.write_text(html, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            dialogs = []
            page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
            page.goto(page_path.as_uri())
            page.wait_for_load_state("load")
            for selector in ("#js", "b"):
                for element in page.locator(selector).all():
                    element.hover()
                    element.click(no_wait_after=True)
            page.wait_for_timeout(500)
            assert page.title() != "PWNED" and not dialogs, (page.title(), dialogs)
            assert "bold" in page.content()  # the learner's formatting stays, only what runs is gone
        finally:
            browser.close()
