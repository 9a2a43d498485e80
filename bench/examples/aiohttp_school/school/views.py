"""Request handlers."""

import os
import subprocess

import aiohttp
from aiohttp import web

from school.dao.student import Student

UPLOADS = "/srv/school/uploads"


async def index(request):
    return web.Response(text="<h1>School</h1>", content_type="text/html")


async def add_student(request):
    data = await request.post()
    name = data["name"]
    async with request.app["db"].acquire() as conn:
        await Student.create(conn, name)
    raise web.HTTPFound("/students")


async def search(request):
    term = request.query.get("q", "")
    async with request.app["db"].acquire() as conn:
        rows = await Student.find(conn, term)
    body = f"<h1>Results for {term}</h1><p>{len(rows)} found</p>"
    return web.Response(text=body, content_type="text/html")


async def echo(request):
    return web.Response(text=request.query.get("msg", ""))


async def student(request):
    async with request.app["db"].acquire() as conn:
        found = await Student.get(conn, request.match_info["id"])
    return web.json_response({"id": found.id, "name": found.name})


async def avatar(request):
    name = request.match_info["name"]
    with open(os.path.join(UPLOADS, name), "rb") as fh:
        return web.Response(body=fh.read(), content_type="image/png")


async def proxy(request):
    url = request.query["url"]
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as resp:
            return web.Response(text=await resp.text())


async def weather(request):
    city = request.query["city"]
    async with aiohttp.ClientSession() as session:
        async with session.get("https://api.weather.example/v1/now?city=" + city) as resp:
            return web.json_response(await resp.json())


async def calculate(request):
    expr = await request.text()
    return web.json_response({"result": eval(expr)})


async def settings(request):
    prefs = await request.json()
    return web.json_response({"saved": prefs})


async def back(request):
    raise web.HTTPFound(request.query.get("next", "/"))


async def report(request):
    async with request.app["db"].acquire() as conn:
        async with conn.cursor() as cur:
            await cur.execute("SELECT path FROM reports WHERE ready")
            paths = [row[0] for row in await cur.fetchall()]
    subprocess.run(["tar", "czf", "/tmp/reports.tgz", *paths], check=True)
    return web.Response(text="ok")


async def ping(request):
    host = (await request.post())["host"]
    out = subprocess.check_output("ping -c 1 %s" % host, shell=True)
    return web.Response(text=out.decode())
