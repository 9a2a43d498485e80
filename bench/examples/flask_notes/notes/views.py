"""The notes blueprint."""

import subprocess

import requests
from flask import Blueprint, jsonify, redirect, render_template, render_template_string, request, url_for
from lxml import etree

from notes import db

bp = Blueprint("notes", __name__)


@bp.route("/note/<note_id>")
def show(note_id):
    row = db.note_by_id(note_id)
    return render_template("note.html", title=row[1], body=row[2])


@bp.route("/mine")
def mine():
    return jsonify(notes=db.notes_by_owner(request.args.get("owner", "")))


@bp.route("/search")
def search():
    q = request.args.get("q", "")
    return render_template("search.html", q=q)


@bp.route("/share")
def share():
    return render_template("share.html", title=request.args.get("t", ""))


@bp.route("/preview")
def preview():
    title = request.args.get("title", "")
    return render_template_string("<h1>" + title + "</h1>")


@bp.route("/import", methods=["POST"])
def import_xml():
    parser = etree.XMLParser(resolve_entities=True)
    doc = etree.fromstring(request.get_data(), parser)
    return jsonify(title=doc.findtext("title"))


@bp.route("/import/safe", methods=["POST"])
def import_xml_safe():
    doc = etree.fromstring(request.get_data())
    return jsonify(title=doc.findtext("title"))


@bp.route("/unfurl", methods=["POST"])
def unfurl():
    page = requests.get(request.form["url"], timeout=5)
    return jsonify(length=len(page.text))


@bp.route("/tags")
def tagged():
    owner = request.args.get("owner", "")
    found = db.tags().find({"$where": "this.owner == '" + owner + "'"})
    return jsonify(tags=[t["name"] for t in found])


@bp.route("/tags/by-name")
def tag_by_name():
    found = db.tags().find_one({"name": request.args.get("name", "")})
    return jsonify(found=bool(found))


@bp.route("/export")
def export():
    folder = request.args.get("dir", "notes")
    subprocess.run(["zip", "-r", "/tmp/export.zip", folder], check=True)
    return jsonify(ok=True)


@bp.route("/logout")
def logout():
    return redirect(url_for("notes.search", q=request.args.get("m", "")))


@bp.route("/login/done")
def login_done():
    return redirect(request.args.get("next") or "/")
