# Courtroom GitHub Action image. The runner mounts the checkout at /github/workspace and
# sets it as the working directory itself, so no WORKDIR; Docker actions run as root, so no USER.
FROM python:3.11-slim

# git: the history detective reads the checkout's commits.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

# The whole repository, so templates/ and rubric.json ship beside the package.
COPY . /opt/courtroom
RUN pip install --no-cache-dir -e /opt/courtroom \
    && git config --system --add safe.directory '*'

ENV PYTHONUNBUFFERED=1 \
    COURTROOM_TEMPLATES=/opt/courtroom/templates

ENTRYPOINT ["python", "/opt/courtroom/entrypoint.py"]
