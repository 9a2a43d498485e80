"""Forum views."""

import base64
import pickle
import subprocess

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import connection
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt


@csrf_exempt
def calc(request):
    if request.user.is_authenticated:
        if request.method == "POST":
            try:
                val = request.POST.get("val")
                result = eval(val)
                return JsonResponse({"result": result})
            except Exception as exc:
                return JsonResponse({"error": str(exc)})
    return JsonResponse({"result": None})


@csrf_exempt
def ping(request):
    if request.method == "POST":
        host = request.POST.get("host")
        cmd = "ping -c 1 {}".format(host)
        out = subprocess.check_output(cmd, shell=True)
        return HttpResponse(out, content_type="text/plain")
    return render(request, "forum/ping.html")


def profile(request):
    name = request.GET.get("name", "")
    html = render_to_string("forum/profile.html", {"name": name})
    return HttpResponse(html)


def bio(request):
    return render(request, "forum/bio.html", {"bio": request.GET.get("bio", "")})


def api_user(request):
    return JsonResponse({"user": request.GET.get("u")})


@login_required
def search(request):
    q = request.GET.get("q", "")
    users = User.objects.raw("SELECT * FROM auth_user WHERE username = '%s'" % q)
    return render(request, "forum/search.html", {"users": users, "q": q})


@login_required
def backup(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT path FROM forum_upload WHERE owner_id = %s", [request.user.id])
        rows = cursor.fetchall()
    for (path,) in rows:
        subprocess.run(["tar", "-rf", "/var/backups/forum.tar", path], check=True)
    return JsonResponse({"files": len(rows)})


def login_next(request):
    target = request.GET.get("next", "/")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("/")


def go(request):
    return HttpResponseRedirect(request.GET["next"])


@csrf_exempt
def prefs(request):
    raw = request.COOKIES.get("prefs", "")
    data = pickle.loads(base64.b64decode(raw))
    return JsonResponse({"theme": data.get("theme")})
