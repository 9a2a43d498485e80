"""A link shortener with previews."""

import json
import subprocess

import httpx
from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import Environment
from pymongo import MongoClient

app = FastAPI()
templates = Jinja2Templates(directory="links/templates")
links = MongoClient("mongodb://localhost:27017").shortener.links


@app.get("/go/{code}")
async def go(code: str):
    found = links.find_one({"code": code})
    return RedirectResponse(found["url"] if found else "/")


@app.get("/out")
async def out(to: str):
    return RedirectResponse(to)


@app.get("/hello", response_class=HTMLResponse)
async def hello(name: str = ""):
    return HTMLResponse("<h1>Hello " + name + "</h1>")


@app.get("/echo")
async def echo(text: str = ""):
    return PlainTextResponse(text)


@app.get("/info")
async def info(q: str = ""):
    return {"query": q}


@app.post("/preview")
async def preview(url: str = Form(...)):
    async with httpx.AsyncClient() as client:
        page = await client.get(url)
    return JSONResponse({"status": page.status_code})


@app.get("/avatar/{user}")
async def avatar(user: str):
    async with httpx.AsyncClient() as client:
        page = await client.get(f"https://avatars.example.com/u/{user}.png")
    return JSONResponse({"size": len(page.content)})


@app.post("/search")
async def search(request: Request):
    body = await request.body()
    rows = list(links.find(json.loads(body)))
    return JSONResponse({"count": len(rows)})


@app.get("/card")
async def card(title: str = ""):
    template = Environment().from_string("<div class=card>" + title + "</div>")
    return HTMLResponse(template.render())


@app.get("/page")
async def page(request: Request, note: str = ""):
    return templates.TemplateResponse("page.html", {"request": request, "note": note})


@app.get("/whois")
async def whois(domain: str):
    result = subprocess.run(["whois", domain], capture_output=True, text=True)
    return PlainTextResponse(result.stdout)


@app.get("/dig")
async def dig(domain: str):
    result = subprocess.run(f"dig +short {domain}", shell=True, capture_output=True, text=True)
    return PlainTextResponse(result.stdout)
