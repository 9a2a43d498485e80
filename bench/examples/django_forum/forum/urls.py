from django.urls import path

from forum import views

urlpatterns = [
    path("calc/", views.calc),
    path("ping/", views.ping),
    path("profile/", views.profile),
    path("bio/", views.bio),
    path("api/user/", views.api_user),
    path("search/", views.search),
    path("backup/", views.backup),
    path("login/next/", views.login_next),
    path("go/", views.go),
    path("prefs/", views.prefs),
]
