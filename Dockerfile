# fixlore in a container: `docker run` with no arguments runs the demo (what `./dev demo` does):
# the whole pipeline, offline, on the bundled demo world, writing to /app/out/demo.
#   docker build -t fixlore .
#   mkdir -p out
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD/out:/app/out" fixlore
#   docker run --rm --user "$(id -u):$(id -g)" -p 127.0.0.1:8765:8765 -v "$PWD/out:/app/out" fixlore serve http --out out/demo --host 0.0.0.0
# --user: the files written into the bind-mounted out/ belong to whoever runs it; any uid works,
# since nothing is written outside /app/out and HOME (/tmp).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOME=/tmp

WORKDIR /app

# the pinned versions (requirements.lock) constrain every package pip installs
COPY pyproject.toml requirements.lock README.md LICENSE ./
COPY src ./src
RUN pip install --no-compile -c requirements.lock . \
 && useradd --create-home --uid 10001 fixlore \
 && mkdir -p /app/out \
 && chown fixlore /app/out \
 && chmod 1777 /app/out

COPY worlds/demo ./worlds/demo

USER 10001
EXPOSE 8765
ENTRYPOINT ["fixlore"]
CMD ["run", "--world", "worlds/demo", "--out", "out/demo"]
