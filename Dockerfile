# Courtroom GitHub Action image. The runner mounts the checkout at /github/workspace and
# sets it as the working directory itself, so no WORKDIR; Docker actions run as root, so no USER
# (git reads the uid-1001 checkout through a per-call safe.directory, not system config).
# A pinned, current CPython: bandit parses with the running interpreter, so 3.12+ syntax
# (PEP 701 f-strings) must be native here.
FROM python:3.13.9-slim-bookworm

# git: the history detective reads the checkout's commits.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

# Dependencies from the metadata alone, before any source is copied: this layer stays cached
# until pyproject.toml changes, so editing the code does not reinstall the world. The vision
# extra (offline OCR and shape analysis of diagram images) is part of the image.
COPY pyproject.toml /opt/courtroom/pyproject.toml
RUN python -c "import tomllib; p = tomllib.load(open('/opt/courtroom/pyproject.toml', 'rb')); \
deps = p['project']['dependencies'] + p['project']['optional-dependencies']['vision']; \
open('/tmp/requirements.txt', 'w').write(chr(10).join(deps))" \
    && pip install --no-cache-dir --disable-pip-version-check -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The package itself, installed (not editable): rubric.json and templates/ ship inside it.
COPY . /opt/courtroom
RUN pip install --no-cache-dir --disable-pip-version-check --no-deps /opt/courtroom

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1

# -P: do not put /opt/courtroom first on sys.path, so the installed package is the one used.
ENTRYPOINT ["python", "-P", "/opt/courtroom/entrypoint.py"]
